public import CogTraceFormat
import CogTraceStore

/// How a `why` question is asked: about which moment, which field, how deep.
public struct WhyOptions: Equatable, Sendable {
    /// The turn asked about; nil for the cursor's.
    public var turn: TurnNumber?
    /// A field path of the value (`.temperatureF`), to follow only that field's changes.
    public var field: String?
    /// The deepest level to show; nil for as many levels as fit one screen.
    public var depth: Int?
    /// Follow every input of every run, not only the one whose change made it run.
    public var all: Bool

    /// A question about the cursor's turn, one screen deep.
    public init(turn: TurnNumber? = nil, field: String? = nil, depth: Int? = nil, all: Bool = false) {
        self.turn = turn
        self.field = field
        self.depth = depth
        self.all = all
    }
}

extension CommandContext {
    /// How many links the default answer shows at most: one screen.
    static let linksPerScreen = 20
    /// How many steps a walk takes before it stops counting what lies deeper.
    static let causalStepBudget = 200_000
    /// How many steps a walk takes before it builds the event index rather than walk back.
    static let stepsBeforeIndexing = 16

    /// Why `state` holds its value at the cursor (or `options.turn`): a tree from the step that
    /// decided it back through every cause to roots.
    public func causalChain(of state: NodeID, _ options: WhyOptions = WhyOptions()) -> CausalChain {
        let limit = options.turn ?? cursor
        let point = TracePoint.through(limit)
        var subject = causalStep(of: state, before: point, all: options.all)
        var note: String?
        // Released since the step that decided its value (and not created again): `why` explains
        // the value it held last. The search stops at that step, so it costs no more than it did.
        if let lifecycle = lastEntry(
            of: state, before: point, after: subject.entry?.point, kinds: ["released", "created"],
            where: { $0.state == state }),
            case .stateReleased(_, let reason) = lifecycle.event
        {
            note =
                "\(label(state)) was released \(placeDescription(of: lifecycle)) (\(reason)); "
                + "this is why it held its last value"
        }
        var values = (old: subject.old, new: subject.new)
        var label = reference(state)
        if let field = options.field {
            (subject, values) = fieldStep(of: state, path: JSONPath(field), before: point, all: options.all)
            label = StateReference(id: state, label: label.label + field)
        }
        return expand(
            subject, as: label, values: values, at: TurnReference(limit), field: options.field, note: note,
            options: options)
    }

    /// The last step before `point` that changed the field at `path` of `state`'s value (or gave
    /// the state its first value), with the field's values before and after it.
    private func fieldStep(
        of state: NodeID, path: JSONPath, before point: TracePoint, all: Bool
    )
        -> (CausalStep, (old: TraceValue?, new: TraceValue?))
    {
        var bound = point
        while true {
            let step = causalStep(of: state, before: bound, all: all)
            let old = step.old.flatMap { Self.piece(of: $0, at: path) }
            let new = step.new.flatMap { Self.piece(of: $0, at: path) }
            guard let entry = step.entry, step.old != nil, old == new else { return (step, (old, new)) }
            bound = entry.point
        }
    }

    /// One field of a recorded value, as a value of its own; nil when the value has no such
    /// field.
    static func piece(of value: TraceValue, at path: JSONPath) -> TraceValue? {
        guard let piece = value.json?.value(at: path) else { return nil }
        return TraceValue(text: piece.stringValue ?? piece.jsonText, json: piece)
    }

    /// The tree under `subject`: each step's causes, breadth first so a cause shared by several
    /// links is expanded where it is shallowest and shown once; then laid out in preorder with
    /// the levels that fit (`options.depth`, or one screen).
    func expand(
        _ subject: CausalStep, as reference: StateReference, values: (old: TraceValue?, new: TraceValue?),
        at turn: TurnReference, field: String?, note: String?, options: WhyOptions
    ) -> CausalChain {
        struct Node {
            let step: CausalStep
            let parent: Int?
            let depth: Int
            let role: CausalLink.Role
            var children: [Int] = []
            var sameAs: Int?
        }
        var nodes = [Node(step: subject, parent: nil, depth: 0, role: .subject)]
        var expanded: [CausalStep.StepKey: Int] = [subject.key: 0]
        var next = 0
        var complete = true
        let budget = options.depth == nil ? Self.causalStepBudget / 10 : Self.causalStepBudget
        while next < nodes.count {
            let node = nodes[next]
            defer { next += 1 }
            guard node.sameAs == nil, let point = node.step.causePoint else { continue }
            // A long walk asks about many states: the index answers each at once, where a walk
            // back from each step would read the same turns again and again.
            if nodes.count == Self.stepsBeforeIndexing { _ = timeline }
            if nodes.count >= budget || interruptRequested() {
                complete = complete && node.step.causes.isEmpty
                continue
            }
            for (state, role) in node.step.causes {
                // A decision shown already is the same step: it is not worked out again.
                let decision = lastDecision(of: state, before: point)
                let known = decision.flatMap { expanded[CausalStep.StepKey(subject: state, point: $0.point)] }
                let step =
                    known.map { nodes[$0].step }
                    ?? causalStep(of: state, restingOn: decision, before: point, all: options.all)
                var child = Node(step: step, parent: next, depth: node.depth + 1, role: role)
                if let shown = expanded[step.key] { child.sameAs = shown } else { expanded[step.key] = nodes.count }
                nodes[next].children.append(nodes.count)
                nodes.append(child)
            }
        }
        let deepest = nodes.map(\.depth).max() ?? 0
        var limit = options.depth ?? deepest
        if options.depth == nil {
            var perLevel = [Int](repeating: 0, count: deepest + 1)
            for node in nodes { perLevel[node.depth] += 1 }
            var shown = 0
            limit = 0
            for (level, count) in perLevel.enumerated() {
                shown += count
                if shown > Self.linksPerScreen && level > 1 { break }
                limit = level
            }
        }
        limit = max(0, limit)
        // Preorder with an explicit stack, so a chain of any length never recurses.
        var order: [Int] = []
        var stack = [0]
        while let index = stack.popLast() {
            guard nodes[index].depth <= limit else { continue }
            order.append(index)
            stack.append(contentsOf: nodes[index].children.reversed())
        }
        var position: [Int: Int] = [:]
        for (place, index) in order.enumerated() { position[index] = place }
        let links = order.enumerated().map { place, index -> CausalLink in
            let node = nodes[index]
            return link(
                for: node.step, index: place, parent: node.parent.flatMap { position[$0] }, depth: node.depth,
                role: node.role, sameAs: node.sameAs.flatMap { position[$0] },
                causesCut: node.depth == limit && !node.children.isEmpty
                    || (node.sameAs == nil && node.children.isEmpty && !node.step.causes.isEmpty),
                as: index == 0 ? (reference, values.old, values.new) : nil)
        }
        return CausalChain(
            subject: reference, field: field, at: turn, links: links, depthLimit: limit, cut: nodes.count - order.count,
            fullDepth: deepest, cutIsExact: complete, note: note)
    }

    /// `step` as a link of a chain: where it stands (`index`, `parent`, `depth`, `role`), and,
    /// for the subject of a field question, the name and values it is shown with.
    func link(
        for step: CausalStep, index: Int = 0, parent: Int? = nil, depth: Int = 0, role: CausalLink.Role = .subject,
        sameAs: Int? = nil, causesCut: Bool = false,
        as shown: (reference: StateReference, old: TraceValue?, new: TraceValue?)? = nil
    ) -> CausalLink {
        CausalLink(
            index: index, parent: parent, depth: depth, role: role, state: shown?.reference ?? reference(step.subject),
            old: shown.map(\.old) ?? step.old, value: shown.map(\.new) ?? step.new,
            turn: step.entry.map { TurnReference($0.turn, afterTurn: $0.isIdle) },
            turnName: step.entry.flatMap { heading(of: $0.turn)?.name }, cause: step.cause, changed: step.changed,
            trigger: step.trigger.map { reference($0) }, asyncWork: step.asyncWork, evicted: step.evicted,
            sameAs: sameAs, causesCut: causesCut, event: step.entry?.event, explanation: step.explanation)
    }
}

extension CommandContext {
    /// For a test that never ended, asked about at its last turn: the generations of `id` still
    /// waiting for their work when the trace stops, the thing a hung test waited on.
    func unansweredWork(of id: NodeID, at turn: TurnNumber) -> [Report] {
        guard trace.isCutShortTest, turn == trace.turnSequences.last else { return [] }
        let waiting = trace.pendingGenerationsAtEnd().filter { $0.state == id }
        guard !waiting.isEmpty else { return [] }
        let how =
            trace.failures.last { [.crash, .terminated, .died].contains($0.kind) }?.message ?? "the test never ended"
        let end = how.split(separator: ";").first.map(String.init) ?? how
        return waiting.map { pending in
            .message(
                "waiting: generation \(pending.generation) of \(pending.label)"
                    + (pending.since.map { ", started at turn \($0)," } ?? "")
                    + " had not answered when the trace ended (\(end))")
        }
    }
}
