/// The commands a session runs and the formats its `export` writes, in the order `help` lists
/// them. `core` is what this module does alone; CogInspectorExport's `standard` adds `sql` and
/// the exports that need SQLite or carry the viewer, so a client that does not want them links
/// neither.
public struct CommandCatalog: Sendable {
    package private(set) var commands: [CommandSpec]
    package private(set) var exportFormats: [ExportFormat]

    /// The engine's own commands, with `export` writing DOT, Mermaid, node-link JSON and the
    /// Chrome/Perfetto timeline.
    public static let core = CommandCatalog(
        commands: orient + failures + travel + look + explain + compare + export + live,
        exportFormats: graphFormats)

    private init(commands: [CommandSpec], exportFormats: [ExportFormat]) {
        self.commands = commands
        self.exportFormats = exportFormats
        describeExport()
    }

    /// Lets each command that depends on the catalog (`export` on its formats) rewrite itself.
    private mutating func describeExport() {
        let catalog = self
        commands = commands.map { spec in spec.fitted?(spec, catalog) ?? spec }
    }

    /// This catalog with `commands` (each after the last one of its group, or at the end for a
    /// new group) and `exportFormats` (after the ones it has).
    package func adding(commands added: [CommandSpec], exportFormats formats: [ExportFormat]) -> CommandCatalog {
        var catalog = self
        for spec in added {
            let position = catalog.commands.lastIndex { $0.group == spec.group }.map { $0 + 1 }
            catalog.commands.insert(spec, at: position ?? catalog.commands.endIndex)
        }
        catalog.exportFormats += formats
        catalog.describeExport()
        return catalog
    }

    /// The command `word` names: its full name, an alias, or a unique prefix.
    func resolve(_ word: String) throws(InspectorError) -> CommandSpec {
        if let exact = commands.first(where: { $0.name == word || $0.aliases.contains(word) }) { return exact }
        let prefixed = commands.filter { $0.name.hasPrefix(word) }
        if prefixed.count == 1 { return prefixed[0] }
        if prefixed.count > 1 {
            throw InspectorError("'\(word)' could be \(prefixed.map(\.name).joined(separator: ", ")); type more of it")
        }
        if let suggestion = closestMatch(to: word, among: commands.map(\.name)) {
            throw InspectorError("unknown command '\(word)'; did you mean '\(suggestion)'?")
        }
        throw InspectorError("unknown command '\(word)'; 'help' lists the commands")
    }

    /// Every name and alias, for completion.
    var names: [String] { commands.flatMap { [$0.name] + $0.aliases } }

    /// The export formats' names as a sentence's list: `dot, mermaid or json`.
    var exportFormatList: String {
        let names = exportFormats.map(\.name)
        guard let last = names.last, names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }

    /// The export format named `name`.
    func exportFormat(_ name: String) throws(InspectorError) -> ExportFormat {
        guard let format = exportFormats.first(where: { $0.name == name }) else {
            throw InspectorError("unknown export format '\(name)'; expected \(exportFormatList)")
        }
        return format
    }
}

extension InspectorSession {
    /// Whether `line` holds a command: false for a blank line or a `#` comment, which `execute`
    /// passes over.
    public static func holdsCommand(_ line: String) -> Bool {
        !withoutComment(line).allSatisfy(\.isWhitespace)
    }

    /// The full name of the command `line` runs (`get` for `v weather.x`), or its first word when
    /// it names no command: what a failed command's JSON document is filed under.
    public func commandName(of line: String) -> String {
        guard let word = (try? tokenize(withoutComment(line)))?.first else { return "" }
        return (try? catalog.resolve(word))?.name ?? word
    }

    /// Runs one command line and returns its result; nil for a blank line or a `#` comment.
    /// - Throws: `InspectorError` for an unknown command, bad arguments, or a failed `expect`.
    public func execute(_ line: String) throws(InspectorError) -> CommandResult? {
        let trimmed = withoutComment(line).drop { $0.isWhitespace }
        if trimmed.isEmpty { return nil }
        let words = try tokenize(String(trimmed))
        let spec = try catalog.resolve(words[0])
        if !companions.isEmpty {
            try refuseWithCompanions(spec, argument: words.dropFirst().first)
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
        let spansRecording = spec.scope == .wholeRecording
        if timelineReadByCommand != nil || !searchedUndecodable.isEmpty {
            report += undecodableWarnings(through: spansRecording ? nil : cursor)
        }
        if spec.scope != .session {
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

    /// Fails unless `spec`, with `argument` first, is one of the catalog's forms that run with
    /// several traces open, saying which forms those are.
    private func refuseWithCompanions(_ spec: CommandSpec, argument: String?) throws(InspectorError) {
        if let argument, spec.multiTraceForms?(catalog).contains(where: { $0.argument == argument }) == true {
            return
        }
        let which = catalog.commands.flatMap { $0.multiTraceForms?(catalog) ?? [] }.map { "'\($0.usage)'" }
        let allowed =
            which.isEmpty
            ? "no command works"
            : "only "
                + (which.count == 1
                    ? which[0]
                    : which.dropLast().joined(separator: ", ") + " and " + (which.last ?? ""))
                + (which.count == 1 ? " works" : " work")
        throw InspectorError(
            "with \(companions.count + 1) traces open, \(allowed); open one trace to run '\(spec.name)'")
    }
}
