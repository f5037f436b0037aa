public import CogTraceFormat
import CogTraceStore

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
    /// `call` carries the front end's parameters: its interrupt check, where progress goes,
    /// whether long answers may stream, and whether another command follows.
    /// - Throws: `InspectorError` for an unknown command, bad arguments, or a failed `expect`.
    public func execute(_ line: String, call: CommandCall = CommandCall()) throws(InspectorError) -> CommandResult? {
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
        let readsTrace = !Self.commandsWithoutTrace.contains(spec.name)
        if readsTrace { try refuseChangedTrace() }
        let context = context(call)
        var report: [Report]
        do {
            report = try spec.run(context, arguments)
        } catch  where error.kind == .interrupted {
            // The cursor and the rest stay where they were.
            for output in context.pendingOutputs { output.discard() }
            throw error
        } catch {
            for output in context.pendingOutputs { output.discard() }
            // An answer read from a file cut short under it is refused, whatever it says.
            if readsTrace { try refuseChangedTrace() }
            apply(context)
            throw error
        }
        do throws(InspectorError) {
            // A command that an interrupt cut short may have answered from partial work: drop
            // it, and any file it made ready.
            if call.interruptRequested?() == true { throw .interrupted }
            if readsTrace { try refuseChangedTrace() }
        } catch {
            for output in context.pendingOutputs { output.discard() }
            throw error
        }
        // The answer stands: its files go in place, in order; one that fails throws the rest away.
        for (index, output) in context.pendingOutputs.enumerated() {
            do throws(InspectorError) {
                try output.commit()
            } catch {
                for later in context.pendingOutputs[(index + 1)...] { later.discard() }
                throw error
            }
        }
        apply(context)
        // A streamed answer reads the trace as its rows are shown: it warns after them, of
        // what that reading found.
        let scope = spec.scope
        if let last = report.last, case .streamedTable(let columns, let stream) = last {
            let changed = { [self] () -> [Report] in
                guard let error = changedTraceError() else { return [] }
                return [.warning(error.message)]
            }
            report[report.count - 1] = .streamedTable(
                columns: columns, rows: stream.followed { changed() + context.warnings(for: scope, streamed: true) })
        } else {
            report += context.warnings(for: scope)
        }
        return CommandResult(command: spec.name, report: report)
    }

    /// Moves the cursor to `sequence`, one step of a `play`, and shows that turn as `turn N` does:
    /// the front end calls this for each turn of a `Playback` as it reaches it.
    public func playStep(
        _ sequence: TurnNumber, call: CommandCall = CommandCall()
    ) throws(InspectorError)
        -> CommandResult
    {
        let context = context(call)
        let report = try context.playStep(sequence)
        apply(context)
        return CommandResult(command: "play", report: report)
    }

    /// Fails unless `spec`, with `argument` first, is one of the catalog's forms that run with
    /// several traces open, saying which forms those are.
    private func refuseWithCompanions(_ spec: CommandSpec, argument: String?) throws(InspectorError) {
        // A form's argument is the word after the command; an empty one is the command alone.
        if spec.multiTraceForms?(catalog).contains(where: { $0.argument == (argument ?? "") }) == true {
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
