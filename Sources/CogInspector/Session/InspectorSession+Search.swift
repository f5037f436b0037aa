import CogTraceFormat

extension InspectorSession {
    /// How many turns a backward search walks before it builds the timeline instead.
    static let searchBudget = 65_536

    /// The last event at or before turn `limit` that decided `state`'s value. From the timeline
    /// once it is built; before that by walking back from `limit`, which costs the distance to
    /// the answer rather than an index of the whole trace, so the first `why` on a big trace
    /// answers at once. A walk that passes `searchBudget` turns builds the timeline and asks it.
    func lastDecision(of state: NodeID, through limit: TurnNumber) -> StateTimeline.Entry? {
        if hasTimeline { return timeline.lastDecision(of: state, through: limit) }
        let start = trace.firstEntryIndex(atOrAfter: limit + 1) - 1
        let search = trace.searchBack(
            from: start, state: state, maxTurns: Self.searchBudget,
            undecodable: { searchedUndecodable.append(($0, $1)) },
            matches: { StateTimeline.decides($0, for: state) })
        switch search {
        case .found(let turn, let scanned, let event):
            return StateTimeline.Entry(turn: turn, event: event, isIdle: scanned.isIdle, position: scanned.position)
        case .none:
            return nil
        case .gaveUp:
            return timeline.lastDecision(of: state, through: limit)
        }
    }

    /// Turn `sequence`'s name, origin and cause: from the cache of the timeline the command read
    /// (one of a few states, or the whole one) or of the whole one once it is built, else read
    /// from the turn's record.
    func heading(of sequence: TurnNumber) -> TurnHeading? {
        if let read = timelineReadByCommand ?? (hasTimeline ? timeline : nil) { return read.heading(of: sequence) }
        return try? trace.turnHeading(sequence)
    }
}
