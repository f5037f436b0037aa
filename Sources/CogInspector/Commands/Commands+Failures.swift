import CogTraceFormat

extension CommandCatalog {
    static let failures: [CommandSpec] = [
        CommandSpec(
            name: "failures", aliases: [], group: "orient", synopsis: "failures",
            summary: "the failures the recorded test reported: after which turn, the test, the kind, the message "
                + "and where in the source; the trace opens at the last turn before the first",
            example: "failures", valueFlags: []
        ) { session, arguments throws(InspectorError) in
            guard arguments.positional.isEmpty else { throw InspectorError("failures takes no arguments") }
            let failures = session.trace.failures
            guard !failures.isEmpty else { return [.message("the recorded test reported no failure")] }
            return [failureTable(failures)]
        }
    ]

    /// Failures as `failures`, `info` and `turn N` show them: after which turn (`N+`), the test,
    /// the kind, the message and the source location.
    static func failureTable(_ failures: [TraceFailure]) -> Report {
        .table(
            columns: ["after", "test", "kind", "message", "location"],
            rows: failures.map { failure in
                [
                    .turn(TurnReference(failure.after, afterTurn: true)), .text(failure.test),
                    .text(failure.kind.rawValue), .text(failure.message), .optionalText(failure.location),
                ]
            })
    }
}

extension InspectorSession {
    /// `turns`' rows with a marker row after each turn a failure followed (and before the first
    /// row for one before any turn), for the failures within `range`.
    func markingFailures(in rows: [[Cell]], range: ClosedRange<TurnNumber>?) -> [[Cell]] {
        let failures = trace.failures.filter { range?.contains($0.after) ?? true }
        guard !failures.isEmpty else { return rows }
        func marker(_ failure: TraceFailure) -> [Cell] {
            [
                .turn(TurnReference(failure.after, afterTurn: true)), .text("✘ failure: \(failure.message)"),
                .text("failure"), .absent, .absent, .cursorMark(false),
            ]
        }
        var marked: [[Cell]] = []
        var pending = failures[...]
        for row in rows {
            if case .turn(let reference) = row.first {
                while let failure = pending.first, failure.after < reference.turn {
                    marked.append(marker(failure))
                    pending = pending.dropFirst()
                }
                marked.append(row)
                while let failure = pending.first, failure.after == reference.turn {
                    marked.append(marker(failure))
                    pending = pending.dropFirst()
                }
            } else {
                marked.append(row)
            }
        }
        marked += pending.map(marker)
        return marked
    }
}
