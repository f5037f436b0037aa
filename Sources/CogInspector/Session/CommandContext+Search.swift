import CogTraceFormat
import CogTraceStore

extension CommandContext {
    /// How many turns a backward search walks before it builds the timeline instead.
    static let searchBudget = 65_536

    /// The last event at or before turn `limit` that decided `state`'s value.
    func lastDecision(of state: NodeID, through limit: TurnNumber) -> StateTimeline.Entry? {
        lastDecision(of: state, before: .through(limit))
    }

    /// The last event strictly before `point` that decided `state`'s value: what a run at
    /// `point` read of it.
    func lastDecision(of state: NodeID, before point: TracePoint) -> StateTimeline.Entry? {
        lastEntry(of: state, before: point, kinds: StateTimeline.decisionKinds) {
            StateTimeline.decides($0, for: state)
        }
    }

    /// The newest event about `state` strictly before `point` whose kind is among `kinds` and
    /// that `matches` accepts. From the timeline once it is built; before that by walking back
    /// from `point`, which costs the distance to the answer rather than an index of the whole
    /// trace, so the first `why` on a big trace answers at once. A walk that passes
    /// `searchBudget` turns builds the timeline and asks it.
    /// With `lowerBound`, only events strictly after it count.
    func lastEntry(
        of state: NodeID, before point: TracePoint, after lowerBound: TracePoint? = nil, kinds: Set<String>,
        where matches: (TraceEvent) -> Bool
    ) -> StateTimeline.Entry? {
        if hasTimeline {
            return timeline.lastEntry(of: state, before: point, after: lowerBound, kinds: kinds, where: matches)
        }
        let start = trace.firstEntryIndex(atOrAfter: point.turn + 1) - 1
        // A walk bounded below stops at the bound's turn rather than building the timeline.
        let bounded = lowerBound.map { start + 1 - trace.firstEntryIndex(atOrAfter: $0.turn) }
        let search = trace.searchBack(
            from: start, state: state, maxTurns: min(bounded ?? .max, Self.searchBudget),
            undecodable: { searchedUndecodable.append(($0, $1)) },
            considers: { turn, scanned in
                let place = TracePoint(turn: turn, isIdle: scanned.isIdle, position: scanned.position)
                return (kinds.contains(scanned.kind) || scanned.kind == "?") && place < point
                    && lowerBound.map { $0 < place } != false
            },
            matches: matches)
        switch search {
        case .found(let turn, let scanned, let event):
            return StateTimeline.Entry(turn: turn, event: event, isIdle: scanned.isIdle, position: scanned.position)
        case .none:
            return nil
        case .gaveUp:
            if let bounded, bounded <= Self.searchBudget { return nil }
            return timeline.lastEntry(of: state, before: point, after: lowerBound, kinds: kinds, where: matches)
        }
    }

    /// Turn `sequence`'s name, origin and cause: from the cache of the timeline the command read
    /// (one of a few states, or the whole one) or of the whole one once it is built, else read
    /// from the turn's record.
    func heading(of sequence: TurnNumber) -> TurnHeading? {
        if let read = timelineRead ?? (hasTimeline ? timeline : nil) { return read.heading(of: sequence) }
        return try? trace.turnHeading(sequence)
    }
}
