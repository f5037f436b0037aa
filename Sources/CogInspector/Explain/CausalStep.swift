import CogTraceFormat
import CogTraceStore

/// What decided one state's value at one point of the recording, and which states' values
/// explain that decision in turn: one node of the graph of causes that `why` walks.
struct CausalStep {
    /// The state (or registration) the step set.
    let subject: NodeID
    /// The event that decided it; nil when nothing recorded did (held since the start).
    let entry: StateTimeline.Entry?
    let cause: CausalLink.Cause
    let old: TraceValue?
    let new: TraceValue?
    /// False for a run whose equal result was gated.
    let changed: Bool
    /// The dependency whose change made it run, as the recorded reads and values confirm it.
    let trigger: NodeID?
    /// The states that explain this step, each asked about just before `entry`.
    let causes: [(state: NodeID, role: CausalLink.Role)]
    let asyncWork: CausalLink.AsyncWork?
    let evicted: ClosedRange<TurnNumber>?
    /// The step as a sentence.
    let explanation: String
    /// Where its causes are asked about (just before): the step's own event, except for a
    /// reaction's run, which records itself before it reads and its reads after.
    var causesBefore: TracePoint? = nil

    /// Where its causes are asked about.
    var causePoint: TracePoint? { causesBefore ?? entry?.point }

    /// What identifies the step, so a shared cause is shown once.
    var key: StepKey { StepKey(subject: subject, point: entry?.point) }

    struct StepKey: Hashable {
        let subject: NodeID
        let point: TracePoint?
    }
}

extension CommandContext {
    /// The step that decided `state`'s value just before `point`: its last write, seed, creation
    /// or run, and the states that explain it (the dependency whose change made it recompute;
    /// every input of a first run; with `all`, every input of any run).
    func causalStep(of state: NodeID, before point: TracePoint, all: Bool) -> CausalStep {
        // One walk back finds the decision or, for a state nothing decided, the creation the
        // step names instead: a state no event touches is walked past once, not twice.
        let found = lastEntry(of: state, before: point, kinds: StateTimeline.decisionKinds) { event in
            if case .stateCreated(state, _) = event { return true }
            return StateTimeline.decides(event, for: state)
        }
        guard let found else { return stepWithoutDecision(of: state, before: point, created: .some(nil)) }
        guard let event = found.event, case .stateCreated(_, .none) = event else {
            return causalStep(of: state, restingOn: found, before: point, all: all)
        }
        // Created without a value: a decision of an earlier life still explains the value.
        if let decision = lastDecision(of: state, before: found.point) {
            return causalStep(of: state, restingOn: decision, before: point, all: all)
        }
        return stepWithoutDecision(of: state, before: point, created: found)
    }

    /// The step whose decision `entry` is (`lastDecision(of:before:)` found it), so a walk that
    /// already knows the decision, and has shown that step, need not work it out again.
    func causalStep(
        of state: NodeID, restingOn entry: StateTimeline.Entry?, before point: TracePoint, all: Bool
    ) -> CausalStep {
        guard let entry, entry.event != nil else { return stepWithoutDecision(of: state, before: point) }
        return causalStep(of: state, decidedAt: entry, all: all, followsCauses: true)
    }

    /// The step that `entry` (an event that decided `state`'s value) is. With `followsCauses`
    /// it finds what explains the step: the reads of a run, the trigger confirmed against them,
    /// the async work of a published result. Without, it trusts the recorded trigger and reads
    /// nothing more, which is what a `history` row of every change can afford; the sentence is
    /// the same either way whenever the recorded trigger holds.
    func causalStep(
        of state: NodeID, decidedAt entry: StateTimeline.Entry, all: Bool = false, followsCauses: Bool = false
    ) -> CausalStep {
        let place = placeDescription(of: entry)
        func root(_ cause: CausalLink.Cause, old: TraceValue?, new: TraceValue?, _ explanation: String) -> CausalStep {
            CausalStep(
                subject: state, entry: entry, cause: cause, old: old, new: new, changed: true, trigger: nil,
                causes: [], asyncWork: nil, evicted: nil, explanation: explanation)
        }
        switch entry.event {
        case .write(_, let old, let new):
            guard trace.states[state]?.shape == .async else {
                let heading = heading(of: entry.turn)
                let requested = heading?.cause.map { ", requested during turn \($0)" } ?? ""
                return root(
                    .written, old: old, new: new,
                    "written \(place), origin \(heading?.origin.rawValue ?? "?")\(requested)")
            }
            return CausalStep(
                subject: state, entry: entry, cause: .published, old: old, new: new, changed: true, trigger: nil,
                causes: [], asyncWork: followsCauses ? asyncWork(of: state, publishedAt: entry) : nil, evicted: nil,
                explanation: "published \(place), a result of its async work")
        case .seeded(_, let value):
            return root(.seeded, old: nil, new: value, "seeded by a test before the recording's first turn")
        case .stateCreated(_, let value):
            return root(.created, old: nil, new: value, "its initial value when it was created \(place)")
        case .recompute(_, let old, let new, let changed, let recorded):
            return runStep(
                of: state, at: entry, values: (old, new, changed), recorded: recorded, all: all,
                followsCauses: followsCauses)
        default:
            return root(.written, old: nil, new: entry.event?.newValue, "changed \(place)")
        }
    }

    /// A selector run: a first run is explained by every input it read; a recompute by the input
    /// whose change made it run, checked against the recorded reads and values (the recorded
    /// trigger when it passes, else the first read that changed since the previous run).
    private func runStep(
        of state: NodeID, at entry: StateTimeline.Entry, values: (old: TraceValue?, new: TraceValue?, changed: Bool),
        recorded: NodeID?, all: Bool, followsCauses: Bool
    ) -> CausalStep {
        let place = placeDescription(of: entry)
        let reads = followsCauses ? self.reads(of: state, at: entry) : []
        guard recorded != nil || values.old != nil else {
            return CausalStep(
                subject: state, entry: entry, cause: .firstRun, old: values.old, new: values.new,
                changed: values.changed, trigger: nil, causes: reads.map { ($0, .read) }, asyncWork: nil,
                evicted: nil, explanation: "computed for the first time \(place)")
        }
        var trigger = recorded
        var changedReads = [recorded].compactMap { $0 }
        if followsCauses {
            // The recorded trigger, when the reads and values confirm it, is all a default answer
            // needs; every read is checked only when it is not, or when `all` shows them.
            let confirmed = recorded.map {
                reads.contains($0) && !self.changedReads(of: state, at: entry, among: [$0]).isEmpty
            }
            if confirmed != true || all { changedReads = self.changedReads(of: state, at: entry, among: reads) }
            trigger =
                recorded.flatMap { changedReads.contains($0) ? $0 : nil } ?? changedReads.first
                ?? (reads.isEmpty ? recorded : nil)
        }
        var causes: [(state: NodeID, role: CausalLink.Role)]
        if let trigger, !all {
            causes = [(trigger, .changed)]
        } else {
            causes = reads.map { ($0, changedReads.contains($0) || $0 == trigger ? .changed : .read) }
            if let trigger, !reads.contains(trigger) { causes.insert((trigger, .changed), at: 0) }
        }
        let same = values.changed ? "" : " to the same value"
        let because =
            trigger.map { " because \(label($0)) changed" }
            ?? ", though nothing it read had changed since its previous run"
        return CausalStep(
            subject: state, entry: entry, cause: .recomputed, old: values.old, new: values.new,
            changed: values.changed, trigger: trigger, causes: causes, asyncWork: nil, evicted: nil,
            explanation: "recomputed\(same) \(place)\(because)")
    }

    /// No recorded event decided the state before `point`: it was created without a value, or has
    /// held its value since before the recording's first turn.
    /// With `known`, the last creation before `point` is already found (`.some(nil)`: there is none).
    private func stepWithoutDecision(
        of state: NodeID, before point: TracePoint, created known: StateTimeline.Entry?? = nil
    ) -> CausalStep {
        let created = known ?? lastEntry(of: state, before: point, kinds: ["created"], where: { _ in true })
        if let created {
            return CausalStep(
                subject: state, entry: created, cause: .created, old: nil, new: nil, changed: true, trigger: nil,
                causes: [], asyncWork: nil, evicted: nil,
                explanation: "created \(placeDescription(of: created)) and not computed yet")
        }
        let first = turns.first ?? point.turn
        let start = try? graph(after: first - 1)
        let value = start?.states[state]?.value ?? (try? graph(after: point.turn))?.states[state]?.value
        let evictedCount = trace.trailer?.evicted ?? 0
        var evicted: ClosedRange<TurnNumber>?
        var explanation = "held since before turn \(first), the first recorded"
        if evictedCount > 0 {
            let (from, overflow) = first.rawValue.subtractingReportingOverflow(evictedCount)
            if !overflow, from < first.rawValue {
                evicted = TurnNumber(from)...(first - 1)
                explanation += "; turns \(from)..\(first.rawValue - 1) were evicted from the ring"
            } else {
                explanation += "; \(evictedCount) earlier turns were evicted from the ring"
            }
        } else if first.rawValue > 1 {
            explanation += "; the turns before it are not in the recording"
        }
        return CausalStep(
            subject: state, entry: nil, cause: .heldSinceStart, old: nil, new: value, changed: false, trigger: nil,
            causes: [], asyncWork: nil, evicted: evicted, explanation: explanation)
    }

    /// "in turn 6 (its name)" or "after turn 5": where an entry happened, as every sentence
    /// of a `why` or `history` says it.
    func placeDescription(of entry: StateTimeline.Entry) -> String {
        entry.isIdle
            ? "after turn \(entry.turn)" : "in turn \(entry.turn) (\(heading(of: entry.turn)?.name ?? "?"))"
    }
}
