import CogTraceFormat
import CogTraceStore

extension CommandCatalog {
    static let orient: [CommandSpec] = [
        CommandSpec(
            name: "info", aliases: ["i"], group: "orient", synopsis: "info",
            summary: "what the trace is: producer, title, turns, time span, states, evictions and warnings",
            example: "info", valueFlags: [], scope: .wholeRecording
        ) { session, arguments throws(InspectorError) in
            _ = try arguments.optional("argument").map { _ throws(InspectorError) in
                throw InspectorError("info takes no arguments")
            }
            let failures = session.trace.failures
            let failureTable: [Report] = failures.isEmpty ? [] : [.section("failures", [failureTable(failures)])]
            let unchecked: [Report] =
                session.trace.infoChecksStructure
                ? []
                : [
                    .warning(
                        "the records were not all decoded (a trace of \(session.trace.byteCount >> 20) MB): undecodable "
                            + "turns lists those the index's scan found, and answers warn of those they read")
                ]
            return [.fields(session.infoFields)] + failureTable + session.trace.warnings.map { .warning("\($0)") }
                + unchecked
        },
        CommandSpec(
            name: "help", aliases: ["h", "?"], group: "orient", synopsis: "help [COMMAND]",
            summary: "the commands, or one command's synopsis, description and an example",
            example: "help why", valueFlags: [], scope: .session
        ) { session, arguments throws(InspectorError) in
            let all = session.catalog.commands
            guard let name = try arguments.optional("command") else {
                var groups: [String] = []
                for spec in all where !groups.contains(spec.group) { groups.append(spec.group) }
                return groups.map { group in
                    .section(
                        group,
                        [
                            .table(
                                columns: ["command", "what it does"],
                                rows: all.filter { $0.group == group }
                                    .map { [.text($0.synopsis), .text($0.summary)] })
                        ])
                } + [.message("commands take unique prefixes; 'help COMMAND' shows one in full")]
            }
            let spec = try session.catalog.resolve(name)
            return [
                .fields([
                    Field("synopsis", .text(spec.synopsis)), Field("aliases", .list(spec.aliases.map(Cell.text))),
                    Field("description", .text(spec.summary)), Field("example", .text(spec.example)),
                ])
            ]
        },
        CommandSpec(
            name: "set", aliases: [], group: "orient", synopsis: "set NAME VALUE",
            summary: "change a setting: width (how much of a value to show), color (auto, on, off), format (text, "
                + "json), columns (line width: auto for the terminal's, or a number)",
            example: "set width 80", valueFlags: [], scope: .session
        ) { session, arguments throws(InspectorError) in
            guard arguments.positional.count == 2 else {
                throw InspectorError("set needs a NAME and a VALUE, e.g. 'set width 80'")
            }
            try session.settings.set(arguments.positional[0], to: arguments.positional[1])
            return [.message("\(arguments.positional[0]) is \(arguments.positional[1])")]
        },
        CommandSpec(
            name: "show", aliases: [], group: "orient", synopsis: "show settings",
            summary: "the current settings", example: "show settings", valueFlags: [], scope: .session
        ) { session, arguments throws(InspectorError) in
            guard arguments.positional == ["settings"] else { throw InspectorError("show knows only 'show settings'") }
            return [.fields(session.settings.fields)]
        },
        CommandSpec(
            name: "clear", aliases: ["cls"], group: "orient", synopsis: "clear",
            summary: "clear the terminal's screen (Ctrl-L does too); in batch it does nothing", example: "clear",
            valueFlags: [], scope: .session
        ) { _, arguments throws(InspectorError) in
            guard arguments.positional.isEmpty else { throw InspectorError("clear takes no arguments") }
            return [.clearScreen]
        },
        CommandSpec(
            name: "quit", aliases: ["q", "exit"], group: "orient", synopsis: "quit",
            summary: "leave the inspector (Ctrl-D does too)", example: "quit", valueFlags: [], scope: .session
        ) { session, _ throws(InspectorError) in
            session.quit()
            return []
        },
    ]
}

extension CommandContext {
    var infoFields: [Field] {
        let header = trace.header
        let turns = self.turns
        var span: Cell = .absent
        if let first = turns.first, let last = turns.last,
            let firstTurn = try? trace.turn(first), let lastTurn = try? trace.turn(last)
        {
            let (end, overflowed) = lastTurn.start.addingReportingOverflow(lastTurn.duration)
            let microseconds = overflowed ? nil : end.subtractingReportingOverflow(firstTurn.start)
            if let microseconds, !microseconds.overflow {
                span = .text(formatMilliseconds(Double(microseconds.partialValue) / 1_000))
            }
        }
        let declarations = Set(trace.states.values.map(\.declaration))
        return [
            Field("trace", .text(source)), Field("title", .text(header.title)),
            Field("producer", .text(header.producer)),
            Field("format", .text(header.format)), Field("format version", .text(header.version)),
            Field("run", .text(header.runID)),
            Field("mode", .text(header.mode)), Field("capacity", .integer(header.capacity)),
            Field("keyframe interval", .integer(header.keyframeInterval)),
            Field("turns", .integer(turns.count)), Field("first turn", .optionalInteger(turns.first?.rawValue)),
            Field("last turn", .optionalInteger(turns.last?.rawValue)), Field("time span", span),
            Field("clock", .text(header.clock)),
            Field("states", .integer(trace.states.count)), Field("declarations", .integer(declarations.count)),
            Field("evicted turns", .integer(trace.trailer?.evicted ?? 0)),
            Field("dropped events", .integer(trace.trailer?.dropped ?? 0)),
            Field("finished", .bool(trace.trailer?.ok == true)),
            // A scan of every record finds them; as a batch's last command on a cold session it
            // files no event (the index of no state), so `info` pays for the scan alone.
            Field("undecodable turns", .list(undecodableTurnsInWholeTrace.map { .turn(TurnReference($0)) })),
            Field("failures", .integer(trace.failures.count)),
            Field("cursor", .turn(TurnReference(cursor))),
        ]
    }
}

extension CommandContext {
    /// Every turn that cannot be decoded, whatever made it so: those the event index's scan
    /// met, and those a decode of every record (the structure check, which `info` runs) met.
    var undecodableTurnsInWholeTrace: [TurnNumber] {
        let scanned = timeline(covering: []).undecodable.map(\.turn)
        let decoded = (trace.infoChecksStructure ? trace.checkStructure() : nil)?.undecodable.map(\.turn) ?? []
        return Array(Set(scanned + decoded)).sorted()
    }
}

func formatMilliseconds(_ milliseconds: Double) -> String {
    milliseconds >= 1_000
        ? "\((milliseconds / 1_000 * 10).rounded() / 10) s" : "\((milliseconds * 10).rounded() / 10) ms"
}
