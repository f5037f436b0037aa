package import CogTraceFormat

/// The graph after the newest turn of a trace that is still arriving, kept up to date a piece at
/// a time: each turn as it arrives, and the idle events after a turn when they come later than
/// the turn itself. What a watch on a followed trace evaluates.
package struct LiveGraph {
    /// What `advance` applied: a turn (with its idle events when they came with it), or idle
    /// events that arrived after their turn.
    package enum Step {
        case turn(TraceTurn)
        case idle(after: TurnNumber)
    }

    /// The graph after everything applied.
    package private(set) var graph: GraphSnapshot
    /// How many of the trace's turns are applied.
    private var appliedTurns: Int
    /// The idle record applied after the last turn, to notice one arriving late.
    private var appliedIdle: Range<Int>?

    /// The graph after the trace's newest turn, as it stands now.
    /// - Throws: `TraceReadError` when a turn on the way there is malformed.
    package init(trace: TraceFile) throws(TraceReadError) {
        appliedTurns = trace.turnPositionCount
        let newest = trace.turnSequences.last ?? TurnNumber((trace.keyframeTurns.first?.rawValue ?? 1) - 1)
        graph = try trace.snapshot(after: newest)
        appliedIdle = appliedTurns > 0 ? trace.idleRange(at: appliedTurns - 1) : nil
    }

    /// Applies what arrived since the last call, telling `body` the graph after each piece.
    /// - Throws: `TraceReadError` for a malformed record; what came before it stays applied.
    package mutating func advance(
        in trace: TraceFile, _ body: (Step, GraphSnapshot) throws(TraceReadError) -> Void
    ) throws(TraceReadError) {
        if appliedTurns == 0, trace.turnPositionCount > 0 {
            // The events before the first turn may have come with it.
            graph = try trace.snapshot(after: trace.turnSequences[0] - 1)
        }
        if appliedTurns > 0, trace.idleRange(at: appliedTurns - 1) != appliedIdle {
            appliedIdle = trace.idleRange(at: appliedTurns - 1)
            for event in try trace.idleEvents(at: appliedTurns - 1) { graph.apply(event) }
            try body(.idle(after: trace.turnSequences[appliedTurns - 1]), graph)
        }
        while appliedTurns < trace.turnPositionCount {
            let turn = try trace.decodedTurn(at: appliedTurns)
            for event in turn.events { graph.apply(event) }
            for event in turn.after { graph.apply(event) }
            appliedIdle = trace.idleRange(at: appliedTurns)
            appliedTurns += 1
            try body(.turn(turn), graph)
        }
    }
}
