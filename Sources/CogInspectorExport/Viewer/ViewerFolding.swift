import CogInspector

/// The graph the page lays out and first draws: each keyed family of more than
/// `GraphView.defaultFoldThreshold` states is one node (`decl[*]`), its edges merged, the way
/// `export dot` folds it. The page unfolds a family on a click, placing its states in a grid
/// under the family's row and moving the rows below down, so nothing else is laid out again.
struct ViewerFolding {
    /// One folded family: its declaration, its members' slots, and the node it draws as.
    struct Family {
        let declaration: String
        let members: [Int]
        let node: GraphView.Node
    }

    /// The folded families, in order of their first member's slot.
    let families: [Family]
    /// What the layout places: each slot outside a folded family, then each family's node.
    let units: [GraphView.Node]
    /// The edges between units, each pair once (a family's edges to itself are left out: they
    /// show when it is unfolded).
    let unitEdges: [(producer: Int, consumer: Int)]
    /// For each slot, the unit that places it.
    let unitOfSlot: [Int]

    /// Folds `nodes` (by slot) and `edges` (slot pairs) at `threshold`.
    init(
        nodes: [GraphView.Node], edges: [(producer: Int, consumer: Int)],
        threshold: Int = GraphView.defaultFoldThreshold
    ) {
        var membersOf: [String: [Int]] = [:]
        var order: [String] = []
        for (slot, node) in nodes.enumerated() {
            guard let declaration = node.declaration, node.key != nil else { continue }
            if membersOf[declaration] == nil { order.append(declaration) }
            membersOf[declaration, default: []].append(slot)
        }
        let folding = order.compactMap { declaration -> Family? in
            guard let members = membersOf[declaration], members.count > threshold else { return nil }
            var node = GraphView.Node(family: declaration, first: nodes[members[0]])
            node.memberCount = members.count
            return Family(declaration: declaration, members: members, node: node)
        }
        families = folding
        var familyOfSlot = [Int?](repeating: nil, count: nodes.count)
        for (index, family) in folding.enumerated() {
            for slot in family.members { familyOfSlot[slot] = index }
        }
        var units: [GraphView.Node] = []
        var unitOfSlot = [Int](repeating: 0, count: nodes.count)
        for (slot, node) in nodes.enumerated() where familyOfSlot[slot] == nil {
            unitOfSlot[slot] = units.count
            units.append(node)
        }
        for family in folding {
            for slot in family.members { unitOfSlot[slot] = units.count }
            units.append(family.node)
        }
        var seen = Set<[Int]>()
        var unitEdges: [(producer: Int, consumer: Int)] = []
        for edge in edges {
            let producer = unitOfSlot[edge.producer]
            let consumer = unitOfSlot[edge.consumer]
            let isInsideFamily = producer == consumer && familyOfSlot[edge.producer] != nil
            if !isInsideFamily, seen.insert([producer, consumer]).inserted { unitEdges.append((producer, consumer)) }
        }
        self.units = units
        self.unitEdges = unitEdges
        self.unitOfSlot = unitOfSlot
    }
}
