import CogTraceFormat
import CogTraceStore

/// What a run read and which of those reads had changed since the run before it: what `why`
/// follows from a recompute and what `deps` marks, so the two cannot disagree.
extension CommandContext {
    /// The kinds of event that can give a state a new value, as records spell them.
    static let valueKinds: Set<String> = ["write", "seeded", "created", "recompute"]

    /// What `state`'s run at `run` read, in read order: the dependency list it recorded last
    /// before the run (a run records a changed list before it reports its result), looked for
    /// back to the keyframe before the run, else the list that keyframe holds. The keyframe
    /// bounds the walk, so a state whose reads never change costs no walk to its first run.
    func reads(of state: NodeID, at run: StateTimeline.Entry) -> [NodeID] {
        let keyframe = trace.keyframeTurns.last { $0 <= run.turn }
        let lowerBound = keyframe.flatMap { $0.rawValue > Int.min ? TracePoint.through($0 - 1) : nil }
        let recorded = lastEntry(of: state, before: run.point, after: lowerBound, kinds: ["deps"]) { event in
            if case .dependencies(state, _) = event { true } else { false }
        }
        if case .dependencies(_, let producers) = recorded?.event { return producers }
        let start = keyframe ?? turns.first ?? run.turn
        guard start.rawValue > Int.min else { return [] }
        return (try? graph(after: start - 1))?.states[state]?.dependencies ?? []
    }

    /// The run of `state` before `run`, if the recording holds one.
    func previousRun(of state: NodeID, before run: StateTimeline.Entry) -> StateTimeline.Entry? {
        lastEntry(of: state, before: run.point, kinds: ["recompute"]) { event in
            if case .recompute(state, _, _, _, _) = event { true } else { false }
        }
    }

    /// Which of `reads` took a new value after `state`'s previous run and before `run`: the
    /// changes that made it run. With no previous run recorded, any change before `run` counts.
    func changedReads(of state: NodeID, at run: StateTimeline.Entry, among reads: [NodeID]) -> [NodeID] {
        let previous = previousRun(of: state, before: run)?.point
        return reads.filter { read in
            lastEntry(of: read, before: run.point, after: previous, kinds: Self.valueKinds) {
                $0.setsValue(of: read)
            } != nil
        }
    }

    /// The value `state` held just before `point`.
    func value(of state: NodeID, before point: TracePoint) -> TraceValue? {
        if let decision = lastDecision(of: state, before: point) { return decision.event?.newValue }
        let start = (turns.first ?? point.turn) - 1
        return (try? graph(after: start))?.states[state]?.value
    }

    /// The async work whose result `state` published at `entry`: the generation accepted after
    /// the write, the turn that generation started in, and what its selector read then.
    func asyncWork(of state: NodeID, publishedAt entry: StateTimeline.Entry) -> CausalLink.AsyncWork {
        var generation: Int?
        if hasTimeline {
            // The index finds the acceptance without decoding the turn again.
            let accepted = timeline.firstEntry(
                of: state, after: entry.point, through: entry.turn, kinds: ["generationAccepted"]
            ) { if case .generationAccepted(state, _, _) = $0 { true } else { false } }
            if case .generationAccepted(_, let number, _) = accepted?.event { generation = number }
        } else if let recorded = try? turn(entry.turn) {
            let laterInTurn = entry.isIdle ? [] : recorded.events.dropFirst(entry.position + 1)
            let laterAfter = entry.isIdle ? recorded.after.dropFirst(entry.position + 1) : recorded.after[...]
            for event in Array(laterInTurn) + Array(laterAfter) {
                if case .generationAccepted(state, let accepted, _) = event {
                    generation = accepted
                    break
                }
            }
        }
        guard let generation,
            let started = lastEntry(
                of: state, before: entry.point, kinds: ["generationStarted"],
                where: { event in
                    if case .generationStarted(state, generation, _) = event { true } else { false }
                })
        else {
            return CausalLink.AsyncWork(generation: generation, started: nil, reads: [])
        }
        let reads = self.reads(of: state, at: started).map { read in
            (state: reference(read), value: value(of: read, before: started.point))
        }
        return CausalLink.AsyncWork(
            generation: generation, started: TurnReference(started.turn, afterTurn: started.isIdle), reads: reads)
    }
}
