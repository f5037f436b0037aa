package import CogTraceFormat
import CogTraceStore

extension CommandContext {
    /// Moves the cursor to turn `sequence`.
    /// - Throws: `InspectorError` if the trace has no such turn.
    func move(to sequence: TurnNumber) throws(InspectorError) {
        try requireTurn(sequence)
        cursor = sequence
    }

    /// Moves the cursor `steps` turns forward (negative: back), stopping at either end.
    func step(_ steps: Int) {
        guard let index = trace.entryIndex(of: cursor) else { return }
        let (target, overflowed) = index.addingReportingOverflow(steps)
        let clamped = overflowed ? (steps > 0 ? turns.count - 1 : 0) : max(0, min(turns.count - 1, target))
        cursor = turns[clamped]
    }

    /// Answers `body` as if the cursor were on turn `turn` (when given), then puts the cursor back
    /// where it was: how `get @N` asks about another turn without moving.
    func answering<Answer>(
        at turn: TurnNumber?, _ body: () throws(InspectorError) -> Answer
    ) throws(InspectorError) -> Answer {
        guard let turn else { return try body() }
        let here = cursor
        cursor = turn
        defer { cursor = here }
        return try body()
    }

    /// Fails unless the trace holds turn `sequence`, saying which turns it has.
    func requireTurn(_ sequence: TurnNumber) throws(InspectorError) {
        guard trace.entryIndex(of: sequence) == nil else { return }
        throw InspectorError("no turn \(sequence) in this trace; it has \(turnsHeld)")
    }

    /// The turns the trace holds, as messages say it: `turns 1..25`, or `no turns`.
    var turnsHeld: String {
        guard let first = turns.first, let last = turns.last else { return "no turns" }
        return "turns \(first)..\(last)"
    }

    /// What a range that selected no turn says: which turns there are.
    func emptyRangeMessage(_ range: ClosedRange<TurnNumber>) -> String {
        let asked =
            range.lowerBound == range.upperBound
            ? "turn \(range.lowerBound)"
            : [
                range.lowerBound.rawValue == Int.min ? "" : "\(range.lowerBound)", "..",
                range.upperBound.rawValue == Int.max ? "" : "\(range.upperBound)",
            ].joined()
        return "no turns in \(asked); the trace has \(turnsHeld)"
    }

    /// The graph after turn `sequence` (the cursor's turn when nil).
    package func graph(after sequence: TurnNumber? = nil) throws(InspectorError) -> GraphSnapshot {
        do {
            return try trace.snapshot(after: sequence ?? cursor)
        } catch {
            throw malformed(error)
        }
    }

    /// Decodes one turn.
    package func turn(_ sequence: TurnNumber) throws(InspectorError) -> TraceTurn {
        do {
            return try trace.turn(sequence)
        } catch {
            throw error.line == 0 && error != TraceFile.cancelled ? InspectorError(error.message) : malformed(error)
        }
    }

    /// A read error as a command's failure: an interrupt, or the line that is malformed.
    func malformed(_ error: TraceReadError) -> InspectorError {
        error == TraceFile.cancelled ? .interrupted : InspectorError("the trace is malformed: \(error)")
    }

    /// The id of the state a person named, or an error with the closest label.
    func resolveState(_ label: String) throws(InspectorError) -> NodeID {
        if let id = trace.stateID(labelled: label) { return id }
        if let refusal = registrationRefusal(label, command: "this command") { throw refusal }
        let labels = trace.states.values.map(\.label)
        if let suggestion = closestMatch(to: label, among: labels) {
            throw InspectorError("unknown state '\(label)'; did you mean '\(suggestion)'?")
        }
        throw InspectorError("unknown state '\(label)'; 'state' lists the states")
    }
}
