import CogTraceFormat
import CogTraceStore

/// The rows of `turns`: one per turn in the range that passes the filters (by name pattern, or
/// touching some states or registrations), with a row for each undecodable turn and a warning
/// about it. Built all at once for a batch run, or streamed a batch of turns at a time.
struct TurnListing {
    static let columns = ["turn", "name", "origin", "cause", "events", "cursor"]
    /// How many turns one streamed batch reads.
    static let batch = 2_048

    let session: CommandContext
    let range: ClosedRange<TurnNumber>?
    let touching: Set<NodeID>?
    let namePattern: TextMatcher?

    /// Adds the row of the turn at `position` (if it is listed) to `rows`.
    func add(_ position: Int, to rows: inout [[Cell]], warnings: inout [Report]) {
        let sequence = session.turns[position]
        guard range?.contains(sequence) ?? true else { return }
        let turn: TraceTurn
        do {
            turn = try session.trace.turn(sequence)
        } catch {
            warnings.append(.warning("turn \(sequence) could not be decoded (\(error)); its row shows nothing of it"))
            rows.append([
                .turn(TurnReference(sequence)), .text("‹undecodable: \(error)›"), .absent, .absent, .absent,
                .cursorMark(sequence == session.cursor),
            ])
            return
        }
        if let namePattern, !namePattern.matches(turn.name) { return }
        if let touching, !(turn.events + turn.after).contains(where: { $0.touches(touching) }) { return }
        rows.append([
            .turn(TurnReference(sequence)), .text(turn.name), .text(turn.origin.rawValue),
            turn.cause.map { .turn(TurnReference($0)) } ?? .absent, .integer(turn.events.count),
            .cursorMark(sequence == session.cursor),
        ])
    }

    /// What `turns` says when no row is listed: which turns there are, for a range that holds
    /// none; that nothing matched, for filters.
    var whenEmpty: [Report] {
        if let range, !session.turns.contains(where: range.contains) {
            return [.message(session.emptyRangeMessage(range))]
        }
        return [.message("no turns match")]
    }

    /// The rows as a stream, a batch of turns at a time, failures marked as they come.
    func streamed() -> Report {
        var position = 0
        var marker = FailureMarker(failures: session.trace.failures, range: range)
        var warnings: [Report] = []
        var interrupted = false
        var listed = false
        let session = session
        let stream = TableRowStream(
            minimumWidths: ["\(session.turns.last ?? 0)+".count],
            produce: {
                guard position < session.turns.count else {
                    // Failures after the last row; with no row at all, none (as a batch run says).
                    let rest = listed ? marker.rest() : []
                    return rest.isEmpty ? nil : rest
                }
                if session.interruptRequested() {
                    interrupted = true
                    position = session.turns.count
                    return nil
                }
                var rows: [[Cell]] = []
                let end = min(session.turns.count, position + Self.batch)
                for index in position..<end { add(index, to: &rows, warnings: &warnings) }
                position = end
                listed = listed || !rows.isEmpty
                return marker.mark(rows)
            },
            finish: { hadRows in
                let stopped: [Report] =
                    interrupted ? [.warning("stopped by Ctrl-C: the recording goes on past the rows above")] : []
                return (hadRows ? [] : whenEmpty) + stopped + warnings
            })
        return .streamedTable(columns: Self.columns, rows: stream)
    }
}
