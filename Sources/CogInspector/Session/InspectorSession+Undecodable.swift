import CogTraceFormat

extension InspectorSession {
    /// The turns whose records could not be decoded (the timeline is built to find them).
    public var undecodableTurns: [(turn: TurnNumber, error: TraceReadError)] { timeline.undecodable }

    /// Warnings for an answer built from the timeline up to turn `limit` (all turns when nil):
    /// one per undecodable turn it had to leave out, naming the turn and its line.
    func undecodableWarnings(through limit: TurnNumber? = nil) -> [Report] {
        let all = (timelineReadByCommand?.undecodable ?? []) + searchedUndecodable
        var seen = Set<TurnNumber>()
        let missing = all.filter { (limit == nil || $0.turn <= limit!) && seen.insert($0.turn).inserted }
            .sorted { $0.turn < $1.turn }
        guard !missing.isEmpty else { return [] }
        let shown = missing.prefix(5).map { turn, error in
            .warning(
                "turn \(turn) could not be decoded (\(error)); this answer leaves it out and may be wrong"
            ) as Report
        }
        let more = missing.count > 5 ? [Report.warning("and \(missing.count - 5) more undecodable turns")] : []
        return shown + more
    }
}
