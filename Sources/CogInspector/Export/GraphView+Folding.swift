public import CogTraceFormat

extension GraphView {
    /// Which keyed families stay unfolded when a view is folded.
    public enum Unfolding: Equatable, Sendable {
        /// Every family stays as its states.
        case all
        /// The families with these declarations stay as their states; the others of more than
        /// the threshold's keys fold.
        case families(Set<String>)
    }

    /// Families of more keys than this fold by default: below it a family's states are read
    /// one by one, above it they are a block no edge can be followed through.
    public static let defaultFoldThreshold = 8

    /// The keyed families in the view, by declaration, with their number of states, in order
    /// of first appearance.
    public var families: [(declaration: String, count: Int)] {
        keyedGroups.map { ($0.declaration, $0.nodes.count) }
    }

    /// The view with each keyed family of more than `threshold` states, other than those
    /// `unfolding` keeps, drawn as one node (`decl[*]`, with its key count). A folded family's
    /// edges are the union of its members', one edge per neighbour and change, each with the
    /// number of edges it stands for; the turn's marks on members become the family's. The
    /// states in `keeping` (a focused state) stay themselves, their family folded around them.
    public func folded(
        unfolding: Unfolding, keeping: Set<NodeID> = [], threshold: Int = defaultFoldThreshold
    ) -> GraphView {
        if unfolding == .all { return self }
        let kept: Set<String> = if case .families(let names) = unfolding { names } else { [] }
        let folding = Set(families.filter { $0.count > threshold && !kept.contains($0.declaration) }.map(\.declaration))
        guard !folding.isEmpty else { return self }
        // Each folded family is drawn under its first member's id, which no other node has.
        var representative: [String: NodeID] = [:]
        var familyOf: [NodeID: NodeID] = [:]
        var folded: [NodeID: Node] = [:]
        var result: [Node] = []
        for node in nodes {
            guard let declaration = node.declaration, node.key != nil, folding.contains(declaration),
                !keeping.contains(node.id)
            else {
                result.append(node)
                continue
            }
            let id = representative[declaration] ?? node.id
            familyOf[node.id] = id
            if var family = folded[id] {
                family.memberCount = (family.memberCount ?? 0) + 1
                family.marks += node.marks.filter { !family.marks.contains($0) }
                family.isNotified = family.isNotified || node.isNotified
                if !node.marks.isEmpty { family.markedMembers += 1 }
                folded[id] = family
            } else {
                representative[declaration] = id
                var family = Node(family: declaration, first: node)
                family.marks = node.marks
                family.isNotified = node.isNotified
                family.markedMembers = node.marks.isEmpty ? 0 : 1
                folded[id] = family
                result.append(family)
            }
        }
        var view = self
        view.nodes = result.map { folded[$0.id] ?? $0 }
        var merged: [Edge: Int] = [:]
        var order: [Edge] = []
        for edge in edges {
            let key = Edge(
                producer: familyOf[edge.producer] ?? edge.producer, consumer: familyOf[edge.consumer] ?? edge.consumer,
                change: edge.change)
            if merged[key] == nil { order.append(key) }
            merged[key, default: 0] += edge.count
        }
        view.edges = order.map { key in
            var edge = key
            edge.count = merged[key] ?? 1
            return edge
        }
        return view
    }
}

extension GraphView.Node {
    /// The node a folded family draws as, under its first member's id and kind: `decl[*]`,
    /// standing for one key so far.
    package init(family declaration: String, first: GraphView.Node) {
        self.init(
            id: first.id, kind: first.kind, label: declaration + "[*]", declaration: declaration, key: nil, value: nil,
            leases: [], isPinned: false, status: nil)
        memberCount = 1
    }
}
