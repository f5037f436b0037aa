package import CogTraceFormat
import CogTraceStore

/// The graph of causes the viewer's `why` panel walks, built by the engine that answers `why`
/// in the terminal: every step that decided a value, as its line (the same words
/// `CausalLink.line` prints), its detail and the steps that explain it. The page only picks the
/// step at the cursor and lays the tree out, by the rules `CommandContext.expand` follows.
package struct ViewerCauses {
    /// `[line, detail or null, [[step, role], …], label, value text]` per step.
    package private(set) var steps: [JSONValue] = []
    private var indexOfStep: [CausalStep.StepKey: Int] = [:]
    private let session: CommandContext

    package init(session: CommandContext) {
        self.session = session
        // Every decision asks about its causes: the index answers each at once.
        _ = session.timeline
    }

    /// The steps that decided values in turn `sequence` (its events, then the work after it), as
    /// `[slot, step, after the turn, position]`, in order; `slot` names a node of the page.
    package mutating func decisions(in turn: TraceTurn, slot: (NodeID) -> Int?) -> [JSONValue] {
        var found: [JSONValue] = []
        for (isIdle, events) in [(false, turn.events), (true, turn.after)] {
            for (position, event) in events.enumerated() {
                guard let state = event.state, let node = slot(state) else { continue }
                let entry = StateTimeline.Entry(turn: turn.sequence, event: event, isIdle: isIdle, position: position)
                let step: Int
                if StateTimeline.decides(event, for: state) {
                    let key = CausalStep.StepKey(subject: state, point: entry.point)
                    step =
                        indexOfStep[key]
                        ?? index(of: session.causalStep(of: state, decidedAt: entry, followsCauses: true))
                } else if case .stateCreated(_, nil) = event {
                    // Created with no value: `why` says so until its first run.
                    let after = TracePoint(turn: turn.sequence, isIdle: isIdle, position: position + 1)
                    step = index(of: session.causalStep(of: state, before: after, all: false))
                } else {
                    continue
                }
                found.append(.array([.int(node), .int(step), .bool(isIdle), .int(position)]))
            }
        }
        return found
    }

    /// The step a state's value rests on when nothing recorded decided it before `turn`.
    package mutating func stepWithoutDecision(of state: NodeID, before turn: TurnNumber) -> Int {
        index(
            of: session.causalStep(of: state, before: TracePoint(turn: turn, isIdle: false, position: -1), all: false))
    }

    /// The index of `step`, adding it and every step under it that is not added yet.
    private mutating func index(of root: CausalStep) -> Int {
        if let known = indexOfStep[root.key] { return known }
        var pending = [root]
        var added: [(step: CausalStep, causes: [(key: CausalStep.StepKey, role: CausalLink.Role)])] = []
        while let step = pending.popLast() {
            guard indexOfStep[step.key] == nil else { continue }
            indexOfStep[step.key] = steps.count + added.count
            var causes: [(key: CausalStep.StepKey, role: CausalLink.Role)] = []
            if let point = step.causePoint {
                for (state, role) in step.causes {
                    // A decision indexed already is the same step: it is not worked out again.
                    let decision = session.lastDecision(of: state, before: point)
                    if let decision, decision.event != nil {
                        let key = CausalStep.StepKey(subject: state, point: decision.point)
                        causes.append((key, role))
                        if indexOfStep[key] == nil {
                            pending.append(
                                session.causalStep(of: state, restingOn: decision, before: point, all: false))
                        }
                        continue
                    }
                    let cause = session.causalStep(of: state, restingOn: decision, before: point, all: false)
                    causes.append((cause.key, role))
                    pending.append(cause)
                }
            }
            added.append((step, causes))
        }
        for (step, causes) in added {
            let link = session.link(for: step)
            steps.append(
                .array([
                    .string(link.line), link.detail.map(JSONValue.string) ?? .null,
                    .array(causes.map { .array([.int(indexOfStep[$0.key] ?? -1), .string($0.role.rawValue)]) }),
                    .string(link.state.label), .string(link.value?.text ?? "nil"),
                ]))
        }
        return indexOfStep[root.key] ?? -1
    }
}
