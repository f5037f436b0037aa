import CogInspector
import CogTraceFormat
import CogTraceStore

/// What the HTML viewer embeds: every node the recording ever drew (a slot each), the layout of
/// their union, and for each turn what changed since the one before (nodes, values, edges) and
/// what the turn did (the marks the DOT export draws), with a full picture every
/// `keyframeInterval` turns so the page never replays more than that many changes.
struct ViewerModel {
    /// How many turns apart the page's full pictures are.
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
        var previousNodes: [Int: NodeState] = [:]
        var previousEdges: Set<[Int]> = []
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
            let view = GraphView(graph: graph, turn: sequence, states: trace.states, annotating: turn)
            var nodeStates: [Int: NodeState] = [:]
            var marks: [JSONValue] = []
            for node in view.nodes {
                let slot = slot(of: node)
                nodeStates[slot] = NodeState(
                    text: node.value?.text, json: node.value?.json, status: node.status, leases: node.leases,
                    isPinned: node.isPinned)
                let flags = node.marks.map(\.rawValue) + (node.isNotified ? ["notified"] : [])
                if !flags.isEmpty || !node.leaseChanges.isEmpty {
                    marks.append(
                        .array([
                            .int(slot), .array(flags.map(JSONValue.string)),
                            .array(node.leaseChanges.map(JSONValue.string)),
                        ]))
                }
            }
            var edgeSet: Set<[Int]> = []
            var annotatedEdges: [JSONValue] = []
            for edge in view.edges {
                guard let producer = slots[edge.producer], let consumer = slots[edge.consumer] else { continue }
                if edge.change != .removed {
                    edgeSet.insert([producer, consumer])
                    if edgeSlots.insert([producer, consumer]).inserted { edges.append((producer, consumer)) }
                }
                if let change = edge.change {
                    annotatedEdges.append(.array([.int(producer), .int(consumer), .string(change.rawValue)]))
                }
            }
            let changedNodes = nodeStates.filter { previousNodes[$0.key] != $0.value }.sorted { $0.key < $1.key }
            let goneNodes = previousNodes.keys.filter { nodeStates[$0] == nil }.sorted()
            var record: [(String, JSONValue)] = [
                ("t", .int(sequence.rawValue)), ("n", .string(turn.name)), ("o", .string(turn.origin.rawValue)),
            ]
            if failureTurns.contains(sequence) {
                record.append(("f", .array(ViewerChanges.failures(after: sequence, in: trace))))
            }
            if !changedNodes.isEmpty {
                record.append(("u", .array(changedNodes.map { Self.json(slot: $0.key, $0.value) })))
            }
            if !goneNodes.isEmpty { record.append(("x", .array(goneNodes.map(JSONValue.int)))) }
            let addedEdges = edgeSet.subtracting(previousEdges).sorted { $0.lexicographicallyPrecedes($1) }
            let removedEdges = previousEdges.subtracting(edgeSet).sorted { $0.lexicographicallyPrecedes($1) }
            if !addedEdges.isEmpty { record.append(("ea", .array(addedEdges.map(Self.json(edge:))))) }
            if !removedEdges.isEmpty { record.append(("er", .array(removedEdges.map(Self.json(edge:))))) }
            if !marks.isEmpty { record.append(("m", .array(marks))) }
            if !annotatedEdges.isEmpty { record.append(("me", .array(annotatedEdges))) }
            let changes = ViewerChanges.groups(of: turn, in: session) { slots[$0] }
            if !changes.isEmpty { record.append(("c", .array(changes.map { lines.encode($0) }))) }
            let touchedAfter = ViewerChanges.touchedAfter(turn) { slots[$0] }
            if !touchedAfter.isEmpty { record.append(("a", .array(touchedAfter.map(JSONValue.int)))) }
            let decisions = causes.decisions(in: turn) { slots[$0] }
            if !decisions.isEmpty { record.append(("d", .array(decisions))) }
            turnRecords.append(.object(record))
            if position % Self.keyframeInterval == 0 {
                keyframes.append(
                    .object([
                        ("at", .int(position)),
                        (
                            "nodes",
                            .array(nodeStates.sorted { $0.key < $1.key }.map { Self.json(slot: $0.key, $0.value) })
                        ),
                        ("edges", .array(edgeSet.sorted { $0.lexicographicallyPrecedes($1) }.map(Self.json(edge:)))),
                    ]))
            }
            previousNodes = nodeStates
            previousEdges = edgeSet
        }
        stepsWithoutDecision = nodes.map { node in
            trace.states[node.id] == nil ? -1 : causes.stepWithoutDecision(of: node.id, before: first)
        }
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
