import CogTraceFormat
import CogTraceStore

extension CommandContext {
    /// The first turn where `expression` holds, the same turn a scan of every turn finds, found
    /// by evaluating far fewer and applying only the events of the states it names. Those
    /// states can only change in turns that touch them (the trace's state index lists those);
    /// between two such turns every condition is constant, except that `changed` is false again
    /// from the turn after. So the candidates are the first turn, each turn touching a named
    /// state and the turn after it; the graph the recording starts from is brought forward by
    /// the named states' own events, in order, and never by anyone else's.
    public func bisect(_ expression: TraceExpression) throws(InspectorError) -> BisectResult? {
        guard let first = turns.first else { return nil }
        let named = Array(Set(expression.states.map(\.id))).sorted()
        let index = timeline(covering: named)
        let streams = named.map { index.entries(of: $0) }
        // A sorted list, not a set: millions of candidates on a big trace, and a set's table
        // is several times the list's memory.
        var candidates: [TurnNumber] = [first]
        for entries in streams {
            var previous: TurnNumber?
            for turn in entries.turns where turn != previous {
                previous = turn
                candidates.append(turn)
                if let position = trace.entryIndex(of: turn), position + 1 < turns.count {
                    candidates.append(turns[position + 1])
                }
            }
        }
        candidates.sort()
        var graph = try self.graph(after: first - 1)
        var readers = streams.map(DecodedEntries.init)
        var evaluations = 0
        var ordered = candidates
        candidates = []
        ordered.removeDuplicatesFromSorted()
        let fields = expression.fieldReferences
        for sequence in ordered {
            evaluations += 1
            if evaluations % Self.interruptCheckStep == 0, interruptRequested() { throw .interrupted }
            if evaluations % Self.bisectProgressStep == 0 {
                progress?(TraceProgress(task: "bisecting", completed: evaluations, total: ordered.count))
            }
            // The named states' events up to the end of this turn (and the work after it), in
            // the order they happened; those inside the turn answer `changed`.
            var inTurn: [TraceEvent] = []
            while true {
                var earliest: (stream: Int, entry: StateTimeline.Entry)?
                for stream in readers.indices {
                    guard let entry = readers[stream].peek(), entry.turn <= sequence else { continue }
                    if let chosen = earliest, !entry.precedes(chosen.entry) { continue }
                    earliest = (stream, entry)
                }
                guard let (stream, entry) = earliest else { break }
                readers[stream].advance()
                // An event that cannot be decoded: the slow way reports it as every command does.
                guard let event = entry.event else { return try bisectByReplay(expression) }
                graph.apply(event)
                if entry.turn == sequence, !entry.isIdle { inTurn.append(event) }
            }
            let turn = TraceTurn(
                sequence: sequence, name: "", origin: .op, cause: nil, start: 0, duration: 0, events: inTurn)
            try refuseTextOnlyField(among: fields, in: graph, at: sequence)
            if expression.holds(in: graph, turn: turn) {
                return BisectResult(turn: sequence, evaluations: evaluations)
            }
        }
        return nil
    }
}

/// One state's entries read in order, decoded a batch at a time on every core: a batch grows
/// from 256 entries, so a bisect that stops early decodes little and one that reads a million
/// entries decodes them in few, large, parallel batches.
private struct DecodedEntries {
    let entries: StateTimeline.Entries
    private var batch: [StateTimeline.Entry] = []
    private var offsetInBatch = 0
    private var decodedUpTo: Int
    private var batchSize = 256

    init(_ entries: StateTimeline.Entries) {
        self.entries = entries
        decodedUpTo = entries.startIndex
    }

    /// The next entry, decoding the next batch when this one is read; nil at the end.
    mutating func peek() -> StateTimeline.Entry? {
        if offsetInBatch == batch.count {
            guard decodedUpTo < entries.endIndex else { return nil }
            let end = min(entries.endIndex, decodedUpTo + batchSize)
            batch = entries[decodedUpTo..<end].decodedAll()
            decodedUpTo = end
            offsetInBatch = 0
            batchSize = min(batchSize * 4, 65_536)
        }
        return batch[offsetInBatch]
    }

    /// Moves past the entry `peek` gave.
    mutating func advance() { offsetInBatch += 1 }
}

extension Array where Element: Equatable {
    /// Keeps the first of each run of equal elements: a sorted list's distinct elements.
    fileprivate mutating func removeDuplicatesFromSorted() {
        guard count > 1 else { return }
        var kept = 1
        for position in 1..<count where self[position] != self[kept - 1] {
            self[kept] = self[position]
            kept += 1
        }
        removeLast(count - kept)
    }
}

extension CommandContext {
    /// Refuses an expression whose `fields` (`TraceExpression.fieldReferences`) include one of a
    /// value recorded as text only at `turn`.
    func refuseTextOnlyField(
        among fields: [TraceExpression.StateReference], in graph: GraphSnapshot, at turn: TurnNumber
    ) throws(InspectorError) {
        guard !fields.isEmpty, let reference = TraceExpression.fieldOfTextOnlyValue(among: fields, in: graph) else {
            return
        }
        throw InspectorError(Self.textOnlyField(reference.label, path: reference.path, at: turn))
    }

    /// Why a field of `label`'s value cannot be read: the words every command uses.
    static func textOnlyField(_ label: String, path: String, at turn: TurnNumber) -> String {
        "cannot evaluate '\(label)\(path)': at turn \(turn) \(label)'s value was recorded as text only "
            + "(its type is not Encodable), so it has no fields; compare the whole value as text "
            + "('\(label) == \"…\"') or make the type Codable"
    }
}
