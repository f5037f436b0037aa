public import CogTraceFormat

/// The recorded graph at one turn as a picture needs it: nodes for states and for the
/// registrations that read them, edges from each producer to its reader, and, for an annotated
/// turn, what that turn did to each. DOT, Mermaid and JSON exports all render this one value.
public struct GraphView: Equatable {
    /// What a node stands for, which decides its shape.
    public enum Kind: String, Sendable {
        case manual, automatic, async, reaction, watch, scope, export

        /// The node kind of a state of `shape`; a shape this reader does not know draws as an
        /// automatic value.
        init(_ shape: StateShape?) {
            self =
                switch shape {
                case .manual: .manual
                case .async: .async
                case .reaction: .reaction
                default: .automatic
                }
        }
    }

    /// What the annotated turn did to a node.
    public enum Mark: String, Sendable, CaseIterable {
        /// A source written in the turn.
        case written
        /// Recomputed to a new value.
        case recomputed
        /// Recomputed to an equal value, so nothing downstream ran.
        case gated
        /// Created in the turn.
        case created
        /// A reaction, watch or export that ran.
        case ran
    }

    /// One node: a state, or a registration that reads states.
    public struct Node: Equatable {
        /// The state's or registration's id in the trace.
        public let id: NodeID
        /// What it stands for, which decides its shape.
        public let kind: Kind
        /// `weather.isNice[10001]`, or a registration's name.
        public let label: String
        /// The declaration a keyed state belongs to, which groups it with its siblings.
        public let declaration: String?
        /// The key of a keyed state.
        public let key: String?
        /// The value after the turn; nil for a registration or a state not computed yet.
        public let value: TraceValue?
        /// Who holds it: reactions, watches, scopes and exports by name.
        public let leases: [String]
        /// Whether a UI read pinned it.
        public let isPinned: Bool
        /// An async state's status kind (`pending`, `success`, `failure`).
        public let status: String?
        /// What the annotated turn did to it.
        public var marks: [Mark] = []
        /// Whether observers of this state were notified in the turn.
        public var isNotified = false
        /// Lease changes in the turn: `+holder` or `-holder`.
        public var leaseChanges: [String] = []
        /// For a folded keyed family (`weather.forecast[*]`), how many keys it stands for; nil
        /// for one state or registration.
        public var memberCount: Int?
        /// For a folded family on an annotated turn, how many of its members the turn marked.
        public var markedMembers = 0
    }

    /// `consumer` reads `producer`; drawn from producer to consumer, the way a change travels.
    public struct Edge: Hashable, Sendable {
        /// What the annotated turn did to the edge.
        public enum Change: String, Sendable {
            case added, removed
        }

        /// The state read.
        public let producer: NodeID
        /// The state or registration that reads it.
        public let consumer: NodeID
        /// Added or removed by the annotated turn; nil when it stood before and after.
        public var change: Change?
        /// How many edges between states this one stands for: more than 1 when a folded family
        /// is at either end.
        public var count = 1
    }

    /// The turn the graph is after; nil for the graph a recording starts from.
    public let turn: TurnNumber?
    /// Whether the turn's effects are marked.
    public let isAnnotated: Bool
    /// States in id order, then registrations.
    public internal(set) var nodes: [Node]
    /// Every edge, plus those the annotated turn removed.
    public internal(set) var edges: [Edge]

    /// Nodes that belong to one keyed declaration, by declaration, for clusters; declarations
    /// with a single state are not grouped.
    public var clusters: [(declaration: String, nodes: [Node])] {
        keyedGroups.filter { $0.nodes.count > 1 }
    }

    /// The keyed states by declaration, in order of first appearance: what clusters and
    /// folded families are made of.
    var keyedGroups: [(declaration: String, nodes: [Node])] {
        var order: [String] = []
        var members: [String: [Node]] = [:]
        for node in nodes {
            guard let declaration = node.declaration, node.key != nil else { continue }
            if members[declaration] == nil { order.append(declaration) }
            members[declaration, default: []].append(node)
        }
        return order.map { ($0, members[$0] ?? []) }
    }

    public static func == (lhs: GraphView, rhs: GraphView) -> Bool {
        lhs.turn == rhs.turn && lhs.isAnnotated == rhs.isAnnotated && lhs.nodes == rhs.nodes && lhs.edges == rhs.edges
    }

    /// Builds the view of `graph`, marking what `annotating` (the turn that led to it) did. With
    /// `only`, the view holds just those nodes and the edges they read, in the order the whole
    /// view would give them: what a walk over many turns rebuilds for the nodes a turn touched.
    package init(
        graph: GraphSnapshot, turn: TurnNumber?, states: [NodeID: TraceStateInfo], annotating: TraceTurn?,
        only: Set<NodeID>? = nil
    ) {
        self.turn = turn
        isAnnotated = annotating != nil
        let stateIDs = only.map { $0.filter { graph.states[$0] != nil }.sorted() } ?? graph.states.keys.sorted()
        let registrationIDs =
            only.map { $0.filter { graph.registrations[$0] != nil }.sorted() } ?? graph.registrations.keys.sorted()
        var nodes: [Node] = stateIDs.compactMap { id -> Node? in
            guard let state = graph.states[id] else { return nil }
            let info = states[id]
            return Node(
                id: id, kind: Kind(info?.shape), label: info?.label ?? "#\(id)",
                declaration: info?.declaration, key: info?.key, value: state.value, leases: state.leases,
                isPinned: state.isPinned, status: state.async?.kind.rawValue)
        }
        for id in registrationIDs {
            guard let registration = graph.registrations[id] else { continue }
            let kind: Kind? =
                switch registration.kind {
                case .reaction: .reaction
                case .watch: .watch
                case .export: .export
                case .scope, .scopeOpening: .scope
                default: nil
                }
            guard let kind, !registration.dependencies.isEmpty || kind == .scope else { continue }
            nodes.append(
                Node(
                    id: id, kind: kind, label: registration.name, declaration: nil, key: nil, value: nil,
                    leases: [], isPinned: false, status: nil))
        }
        var edges: [Edge] = []
        for state in stateIDs.compactMap({ graph.states[$0] }) {
            edges += state.dependencies.map { Edge(producer: $0, consumer: state.id) }
        }
        for registration in registrationIDs.compactMap({ graph.registrations[$0] }) {
            edges += registration.dependencies.map { Edge(producer: $0, consumer: registration.id) }
        }
        self.nodes = nodes
        self.edges = edges
        if let annotating { annotate(with: annotating) }
    }

    /// Marks what `turn` did: writes, recomputes, creations, notices, runs, lease and edge changes.
    private mutating func annotate(with turn: TraceTurn) {
        var index: [NodeID: Int] = [:]
        for (position, node) in nodes.enumerated() { index[node.id] = position }
        func mark(_ id: NodeID, _ change: (inout Node) -> Void) {
            if let position = index[id] { change(&nodes[position]) }
        }
        for event in turn.events {
            switch event {
            case .write(let id, _, _), .writeDiscarded(let id, _): mark(id) { $0.marks.append(.written) }
            case .recompute(let id, _, _, let changed, _): mark(id) { $0.marks.append(changed ? .recomputed : .gated) }
            case .stateCreated(let id, _): mark(id) { $0.marks.append(.created) }
            case .notice(let id): mark(id) { $0.isNotified = true }
            case .reactionRun(let id), .watchRun(let id, _, _): mark(id) { $0.marks.append(.ran) }
            case .offer(_, let subscriber, _): mark(subscriber) { $0.marks.append(.ran) }
            case .leaseAcquired(let id, let holder): mark(id) { $0.leaseChanges.append("+" + holder) }
            case .leaseReleased(let id, let holder): mark(id) { $0.leaseChanges.append("-" + holder) }
            case .edgeAdded(let consumer, let producer):
                if let position = edges.firstIndex(of: Edge(producer: producer, consumer: consumer)) {
                    edges[position].change = .added
                }
            case .edgeRemoved(let consumer, let producer):
                if index[consumer] != nil, index[producer] != nil {
                    edges.append(Edge(producer: producer, consumer: consumer, change: .removed))
                }
            default: break
            }
        }
        for position in nodes.indices {
            var seen = Set<Mark>()
            nodes[position].marks = nodes[position].marks.filter { seen.insert($0).inserted }
        }
    }

    /// Keeps only the nodes within `depth` edges of `center` (in either direction), and the edges
    /// among them: the neighbourhood of one state in a graph too large to read whole.
    public func focused(on center: NodeID, depth: Int) -> GraphView {
        var neighbours: [NodeID: Set<NodeID>] = [:]
        for edge in edges {
            neighbours[edge.producer, default: []].insert(edge.consumer)
            neighbours[edge.consumer, default: []].insert(edge.producer)
        }
        var kept: Set<NodeID> = [center]
        var frontier: Set<NodeID> = [center]
        var remaining = max(0, depth)
        while remaining > 0, !frontier.isEmpty {
            frontier = Set(frontier.flatMap { neighbours[$0] ?? [] }).subtracting(kept)
            kept.formUnion(frontier)
            remaining -= 1
        }
        var view = self
        view.nodes = nodes.filter { kept.contains($0.id) }
        view.edges = edges.filter { kept.contains($0.producer) && kept.contains($0.consumer) }
        return view
    }
}
