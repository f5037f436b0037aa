import CogTraceFormat
import CogTraceStore

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
