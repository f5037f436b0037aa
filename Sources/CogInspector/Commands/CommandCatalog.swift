/// One command: its names, its help, and what it does.
struct CommandSpec: Sendable {
    let name: String
    let aliases: [String]
    let group: String
    let synopsis: String
    let summary: String
    let example: String
    /// Options that take a value, e.g. `--touching`.
    let valueFlags: Set<String>
    /// Options that take no value, e.g. `--force`.
    var switches: Set<String> = []
    let run: @Sendable (InspectorSession, CommandArguments) throws(InspectorError) -> [Report]

    /// Whether its answer is built from what recorded turns did, so a gap in the file's turn
    /// numbering before the cursor makes it incomplete. The session's own settings, help and
    /// the live commands (which say what they follow when they stop) are not.
    var readsRecordedTurns: Bool {
        !["help", "set", "show", "clear", "quit", "follow", "watch", "unwatch"].contains(name)
    }
}

/// Every command, in the order `help` lists them.
enum CommandCatalog {
    static let all: [CommandSpec] = orient + failures + travel + look + explain + compare + export + live

    /// The command `word` names: its full name, an alias, or a unique prefix.
    static func resolve(_ word: String) throws(InspectorError) -> CommandSpec {
        if let exact = all.first(where: { $0.name == word || $0.aliases.contains(word) }) { return exact }
        let prefixed = all.filter { $0.name.hasPrefix(word) }
        if prefixed.count == 1 { return prefixed[0] }
        if prefixed.count > 1 {
            throw InspectorError("'\(word)' could be \(prefixed.map(\.name).joined(separator: ", ")); type more of it")
        }
        if let suggestion = closestMatch(to: word, among: all.map(\.name)) {
            throw InspectorError("unknown command '\(word)'; did you mean '\(suggestion)'?")
        }
        throw InspectorError("unknown command '\(word)'; 'help' lists the commands")
    }

    /// Every name and alias, for completion.
    static var names: [String] { all.flatMap { [$0.name] + $0.aliases } }
}

extension InspectorSession {
    /// Whether `line` holds a command: false for a blank line or a `#` comment, which `execute`
    /// passes over.
    public static func holdsCommand(_ line: String) -> Bool {
        !withoutComment(line).allSatisfy(\.isWhitespace)
    }

    /// The full name of the command `line` runs (`get` for `v weather.x`), or its first word when
    /// it names no command: what a failed command's JSON document is filed under.
    public static func commandName(of line: String) -> String {
        guard let word = (try? tokenize(withoutComment(line)))?.first else { return "" }
        return (try? CommandCatalog.resolve(word))?.name ?? word
    }

    /// Runs one command line and returns its result; nil for a blank line or a `#` comment.
    /// - Throws: `InspectorError` for an unknown command, bad arguments, or a failed `expect`.
    public func execute(_ line: String) throws(InspectorError) -> CommandResult? {
        let trimmed = withoutComment(line).drop { $0.isWhitespace }
        if trimmed.isEmpty { return nil }
        let words = try tokenize(String(trimmed))
        let spec = try CommandCatalog.resolve(words[0])
        if !companions.isEmpty, spec.name != "export" || !["sqlite", "tables"].contains(words.dropFirst().first) {
            throw InspectorError(
                "with \(companions.count + 1) traces open, only 'export sqlite FILE' and 'export tables DIR' work; "
                    + "open one trace to run '\(spec.name)'")
        }
        let arguments = try CommandArguments(
            Array(words.dropFirst()), command: spec.name, valueFlags: spec.valueFlags, switches: spec.switches,
            text: String(trimmed.drop { !$0.isWhitespace }))
        timelineReadByCommand = nil
        searchedUndecodable = []
        undeclaredNamed = []
        let cursorBefore = cursor
        var report: [Report]
        do {
            report = try spec.run(self, arguments)
        } catch  where error.kind == .interrupted {
            cursor = cursorBefore
            throw error
        }
        // A command that an interrupt cut short may have answered from partial work: drop it.
        if interruptRequested() {
            cursor = cursorBefore
            throw .interrupted
        }
        // `history` and `find` answer over the whole recording; the rest up to the cursor.
        let spansRecording = spec.name == "history" || spec.name == "find" || spec.name == "info"
        if timelineReadByCommand != nil || !searchedUndecodable.isEmpty {
            report += undecodableWarnings(through: spansRecording ? nil : cursor)
        }
        if spec.readsRecordedTurns {
            report += missingTurnWarnings(through: spansRecording ? nil : cursor)
            report += keyframeWarnings(through: spansRecording ? nil : cursor)
            if !undeclaredNamed.isEmpty {
                let ids = undeclaredNamed.sorted().prefix(5).map { "#\($0)" }.joined(separator: ", ")
                let more = undeclaredNamed.count > 5 ? " and \(undeclaredNamed.count - 5) more" : ""
                report.append(
                    .warning(
                        "\(ids)\(more) named by the trace but never declared (no state record or registration); "
                            + "lines may be missing from the file"))
            }
        }
        return CommandResult(command: spec.name, report: report)
    }
}
