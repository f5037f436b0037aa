import CogTraceFormat
import CogTraceStore

extension CommandCatalog {
    static let failures: [CommandSpec] = [
        CommandSpec(
            name: "failures", aliases: [], group: "orient", synopsis: "failures",
            summary: "the failures the recorded test reported: after which turn, the test, the kind, the message "
                + "and where in the source, then the states the test read just before each, with the turn that last "
                + "decided each value; the trace opens at the last turn before the first",
            example: "failures", valueFlags: []
        ) { session, arguments throws(InspectorError) in
            guard arguments.positional.isEmpty else { throw InspectorError("failures takes no arguments") }
            let failures = session.trace.failures
            guard !failures.isEmpty else { return [.message("the recorded test reported no failure")] }
            return [failureTable(failures)] + (try session.readsBeforeFailures(failures))
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
                    .text(failure.kind.rawValue), .text(shownMessage(of: failure)), .optionalText(failure.location),
                ]
            })
    }
}

extension CommandCatalog {
    /// A failure's message, with the signal that ended the process when the message does not
    /// name it already (a crash's fatal message).
    static func shownMessage(of failure: TraceFailure) -> String {
        guard let signal = failure.signal, !failure.message.contains(signal) else { return failure.message }
        return failure.message + " (\(signal))"
    }
}

extension CommandContext {
    /// `turns`' rows with a marker row after each turn a failure followed (and before the first
    /// row for one before any turn), for the failures within `range`.
    func markingFailures(in rows: [[Cell]], range: ClosedRange<TurnNumber>?) -> [[Cell]] {
        var marker = FailureMarker(failures: trace.failures, range: range)
        return marker.mark(rows) + marker.rest()
    }
}

/// Puts a marker row after each turn a failure followed, into `turns`' rows as they come (all
/// at once, or a batch at a time when they stream), and the failures after the last row at
/// the end.
struct FailureMarker {
    private var pending: ArraySlice<TraceFailure>

    init(failures: [TraceFailure], range: ClosedRange<TurnNumber>?) {
        pending = failures.filter { range?.contains($0.after) ?? true }[...]
    }

    /// `rows` with the markers of the failures up to their last turn.
    mutating func mark(_ rows: [[Cell]]) -> [[Cell]] {
        guard !pending.isEmpty else { return rows }
        var marked: [[Cell]] = []
        for row in rows {
            if case .turn(let reference) = row.first {
                while let failure = pending.first, failure.after < reference.turn {
                    marked.append(Self.marker(failure))
                    pending = pending.dropFirst()
                }
                marked.append(row)
                while let failure = pending.first, failure.after == reference.turn {
                    marked.append(Self.marker(failure))
                    pending = pending.dropFirst()
                }
            } else {
                marked.append(row)
            }
        }
        return marked
    }

    /// The markers of the failures after every row.
    mutating func rest() -> [[Cell]] {
        defer { pending = [] }
        return pending.map(Self.marker)
    }

    private static func marker(_ failure: TraceFailure) -> [Cell] {
        [
            .turn(TurnReference(failure.after, afterTurn: true)),
            .text("✘ failure: \(CommandCatalog.shownMessage(of: failure))"),
            .text("failure"), .absent, .absent, .cursorMark(false),
        ]
    }
}

extension CommandContext {
    /// For each failure after a turn, the states the test read after that turn and before the
    /// failure (the outermost of them: what a `peek` asked for), each with its value there, the
    /// turn that last decided it and whether the failure's message shows that value: a test that
    /// checks at its end is thus led from the failure to the turn that set the value it checked.
    func readsBeforeFailures(_ failures: [TraceFailure]) throws(InspectorError) -> [Report] {
        var reports: [Report] = []
        for (number, failure) in failures.enumerated() where failure.after > 0 {
            guard trace.entryIndex(of: failure.after) != nil else { continue }
            let events = try turn(failure.after).after
            let graph = try self.graph(after: failure.after)
            let roots = OutsideReads.roots(in: events, dependencies: { graph.states[$0]?.dependencies ?? [] })
            var rows: [[Cell]] = []
            for id in roots {
                guard let info = trace.states[id] else { continue }
                let value = graph.states[id]?.value
                let decided = timeline.lastDecision(of: id, through: failure.after)
                let decidedName = try decided.map { entry throws(InspectorError) in try turn(entry.turn).name }
                rows.append([
                    .state(StateReference(id: id, label: info.label)), .value(value),
                    decided.map { .turn(TurnReference($0.turn, afterTurn: $0.isIdle)) } ?? .absent,
                    decidedName.map(Cell.text) ?? .absent,
                    .bool(value.map { Self.message(failure.message, shows: $0.text) } ?? false),
                ])
            }
            guard !rows.isEmpty else { continue }
            reports.append(
                .section(
                    "read before failure \(number + 1) (after turn \(failure.after))",
                    [.table(columns: ["state", "value", "last decided", "by turn", "in the message"], rows: rows)]))
        }
        return reports
    }

    /// Whether a failure's message shows `text` as a value the expectation saw: Swift Testing
    /// writes `(expression → value)`, XCTest `("value")`.
    static func message(_ message: String, shows text: String) -> Bool {
        message.contains("→ \(text))") || message.contains("(\"\(text)\")")
    }
}
