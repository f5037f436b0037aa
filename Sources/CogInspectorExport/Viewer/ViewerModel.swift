import CogInspector
import CogTraceFormat
import CogTraceStore

/// What the HTML viewer embeds: every node the recording ever drew (a slot each), the layout of
/// their union, and for each turn what changed since the one before (nodes, values, edges) and
/// what the turn did (the marks the DOT export draws), with a full picture wherever replaying
/// from the one before would cost more than drawing it.
struct ViewerModel {
    /// How many turns apart the page's full pictures are at least.
    static let keyframeInterval = 50

    /// A node's look that can change from turn to turn.
    struct NodeState: Equatable {
        let text: String?
        let json: JSONValue?
        let status: String?
        let leases: [String]
        let isPinned: Bool
    }

    /// Every node that appears at any turn, in first-seen order.
    private(set) var nodes: [GraphView.Node] = []
    private var slots: [NodeID: Int] = [:]
    /// Every edge that stands at any turn, as slots.
    private(set) var edges: [(producer: Int, consumer: Int)] = []
    private var edgeSlots: Set<[Int]> = []
    /// One JSON record per turn, in order.
    private(set) var turnRecords: [JSONValue] = []
    private(set) var keyframes: [JSONValue] = []
    /// The change lists' text, each distinct line once: most lines recur from turn to turn.
    private(set) var lines = ViewerLines()
    /// The graph of causes the `why` panel walks.
    private(set) var causes: ViewerCauses
    /// For each slot, the step its value rests on before any recorded decision (-1 for a
    /// registration).
    private(set) var stepsWithoutDecision: [Int] = []

    /// Walks the turns at `window` (positions in the recording's turn list) once, from the graph
    /// before the first of them.
    init(session: CommandContext, window: Range<Int>) throws(InspectorError) {
        let trace = session.trace
        causes = ViewerCauses(session: session)
        let sequences = trace.turnSequences[window.clamped(to: trace.turnSequences.indices)]
        guard let first = sequences.first else { return }
        var graph = try session.graph(after: first - 1)
        var picture = ViewerPicture()
        var lastKeyframe = 0
        var changesSinceKeyframe = 0
        let failureTurns = Set(trace.failures.map(\.after))
        for (position, sequence) in sequences.enumerated() {
            // An export of many turns takes a while: Ctrl-C stops it, and no file is written.
            if position % CommandContext.interruptCheckStep == 0 {
                if session.interruptRequested() { throw .interrupted }
                session.progress?(
                    TraceProgress(task: "building the viewer", completed: position, total: sequences.count))
            }
            let turn = try session.turn(sequence)
            for event in turn.events { graph.apply(event) }
            for event in turn.after { graph.apply(event) }
            // The first turn draws the whole graph; every later one only the nodes its events name.
            let touched = position == 0 ? nil : Self.subjects(of: turn)
            let view = GraphView(
                graph: graph, turn: sequence, states: trace.states, annotating: turn, only: touched)
            let known = nodes.count
            for node in view.nodes { _ = slot(of: node) }
            let changes = picture.move(
                to: graph, view: view, touched: touched, newSlots: nodes[known...].map(\.id), slots: slots
            ) { edge in
                if edgeSlots.insert(edge).inserted { edges.append((edge[0], edge[1])) }
            }
            var record: [(String, JSONValue)] = [
                ("t", .int(sequence.rawValue)), ("n", .string(turn.name)), ("o", .string(turn.origin.rawValue)),
            ]
            if failureTurns.contains(sequence) {
                record.append(("f", .array(ViewerChanges.failures(after: sequence, in: trace))))
            }
            if !changes.nodes.isEmpty { record.append(("u", .array(changes.nodes.map(Self.json(slot:_:))))) }
            if !changes.gone.isEmpty { record.append(("x", .array(changes.gone.map(JSONValue.int)))) }
            if !changes.addedEdges.isEmpty { record.append(("ea", .array(changes.addedEdges.map(Self.json(edge:))))) }
            if !changes.removedEdges.isEmpty {
                record.append(("er", .array(changes.removedEdges.map(Self.json(edge:)))))
            }
            let marks = marks(in: view)
            if !marks.isEmpty { record.append(("m", .array(marks))) }
            let annotatedEdges = annotatedEdges(in: view)
            if !annotatedEdges.isEmpty { record.append(("me", .array(annotatedEdges))) }
            let changeList = ViewerChanges.groups(of: turn, in: session) { slots[$0] }
            if !changeList.isEmpty { record.append(("c", .array(changeList.map { lines.encode($0) }))) }
            let touchedAfter = ViewerChanges.touchedAfter(turn) { slots[$0] }
            if !touchedAfter.isEmpty { record.append(("a", .array(touchedAfter.map(JSONValue.int)))) }
            let decisions = causes.decisions(in: turn) { slots[$0] }
            if !decisions.isEmpty { record.append(("d", .array(decisions))) }
            turnRecords.append(.object(record))
            // A full picture when replaying from the last one would cost more than drawing it,
            // and never closer than `keyframeInterval` turns: a wide graph gets few.
            changesSinceKeyframe += changes.count
            if position == 0
                || (position - lastKeyframe >= Self.keyframeInterval && changesSinceKeyframe >= picture.size)
            {
                keyframes.append(keyframe(of: picture, at: position))
                lastKeyframe = position
                changesSinceKeyframe = 0
            }
        }
        stepsWithoutDecision = nodes.map { node in
            trace.states[node.id] == nil ? -1 : causes.stepWithoutDecision(of: node.id, before: first)
        }
    }

    /// Every node `turn` can have changed or marked: the subjects of its events, and the
    /// producers and subscribers they name.
    private static func subjects(of turn: TraceTurn) -> Set<NodeID> {
        var found = Set<NodeID>()
        for event in turn.events + turn.after {
            if let state = event.state { found.insert(state) }
            if let registration = event.registration { found.insert(registration) }
            if let producer = event.edgeProducer { found.insert(producer) }
            if case .offer(_, let subscriber, _) = event { found.insert(subscriber) }
        }
        return found
    }

    /// `[slot, [flags], [lease changes]]` for each node of `view` the turn marked.
    private func marks(in view: GraphView) -> [JSONValue] {
        view.nodes.compactMap { node in
            let flags = node.marks.map(\.rawValue) + (node.isNotified ? ["notified"] : [])
            guard let slot = slots[node.id], !flags.isEmpty || !node.leaseChanges.isEmpty else { return nil }
            return .array([
                .int(slot), .array(flags.map(JSONValue.string)), .array(node.leaseChanges.map(JSONValue.string)),
            ])
        }
    }

    /// `[producer, consumer, "added" or "removed"]` for each edge of `view` the turn changed.
    private func annotatedEdges(in view: GraphView) -> [JSONValue] {
        view.edges.compactMap { edge in
            guard let change = edge.change, let producer = slots[edge.producer], let consumer = slots[edge.consumer]
            else { return nil }
            return .array([.int(producer), .int(consumer), .string(change.rawValue)])
        }
    }

    /// The full picture the page starts from for the turns at `position` and after.
    private func keyframe(of picture: ViewerPicture, at position: Int) -> JSONValue {
        .object([
            ("at", .int(position)),
            ("nodes", .array(picture.nodes.sorted { $0.key < $1.key }.map { Self.json(slot: $0.key, $0.value) })),
            ("edges", .array(picture.edges.sorted { $0.lexicographicallyPrecedes($1) }.map(Self.json(edge:)))),
        ])
    }

    /// The slot of `node`, given one the first time it is seen.
    private mutating func slot(of node: GraphView.Node) -> Int {
        if let slot = slots[node.id] { return slot }
        slots[node.id] = nodes.count
        nodes.append(node)
        return nodes.count - 1
    }

    private static func json(slot: Int, _ state: NodeState) -> JSONValue {
        .array([
            .int(slot), state.text.map(JSONValue.string) ?? .null, state.json ?? .null,
            state.status.map(JSONValue.string) ?? .null, .array(state.leases.map(JSONValue.string)),
            .bool(state.isPinned),
        ])
    }

    private static func json(edge: [Int]) -> JSONValue { .array(edge.map(JSONValue.int)) }
}
