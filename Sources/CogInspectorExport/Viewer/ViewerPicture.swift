import CogInspector
import CogTraceFormat

/// The graph the page draws after one turn, by slot: each live node's look and each reader's
/// edges. A walk over a recording moves it forward by the nodes a turn touched only, so a turn of
/// a 10,000-state graph costs what it changed, not the size of the graph.
struct ViewerPicture {
    /// What one move forward changed, as the page's turn record says it.
    struct Changes {
        var nodes: [(slot: Int, state: ViewerModel.NodeState)] = []
        var gone: [Int] = []
        var addedEdges: [[Int]] = []
        var removedEdges: [[Int]] = []

        /// How many entries the page replays for this move.
        var count: Int { nodes.count + gone.count + addedEdges.count + removedEdges.count }
    }

    /// Each live node's look, by slot.
    private(set) var nodes: [Int: ViewerModel.NodeState] = [:]
    /// Every standing edge as `[producer slot, consumer slot]`.
    private(set) var edges: Set<[Int]> = []
    /// The edges each reader stands on, by the reader's id.
    private var edgesOfReader: [NodeID: Set<[Int]>] = [:]
    /// Readers whose producer has no slot yet (it was never drawn): their edges are drawn once it is.
    private var waiting: [NodeID: Set<NodeID>] = [:]

    /// How many entries a full picture holds: what a keyframe costs the page.
    var size: Int { nodes.count + edges.count }

    /// Moves the picture to `graph`, where `view` holds the nodes `touched` names (every node
    /// when `touched` is nil) and `slots` gives every drawn node's slot. `standing` is called with
    /// each edge that stands, in the order the whole view lists them, the first time and after.
    mutating func move(
        to graph: GraphSnapshot, view: GraphView, touched: Set<NodeID>?, newSlots: [NodeID],
        slots: [NodeID: Int], standing: ([Int]) -> Void
    ) -> Changes {
        var changes = Changes()
        var seen = Set<Int>()
        for node in view.nodes {
            guard let slot = slots[node.id] else { continue }
            seen.insert(slot)
            let state = ViewerModel.NodeState(
                text: node.value?.text, json: node.value?.json, status: node.status, leases: node.leases,
                isPinned: node.isPinned)
            if nodes.updateValue(state, forKey: slot) != state { changes.nodes.append((slot, state)) }
        }
        if let touched {
            for id in touched {
                guard let slot = slots[id], !seen.contains(slot), nodes.removeValue(forKey: slot) != nil else {
                    continue
                }
                changes.gone.append(slot)
            }
        } else {
            changes.gone = nodes.keys.filter { !seen.contains($0) }
            for slot in changes.gone { nodes[slot] = nil }
        }
        changes.nodes.sort { $0.slot < $1.slot }
        changes.gone.sort()
        var readers = touched.map(Array.init) ?? Array(graph.states.keys) + Array(graph.registrations.keys)
        for producer in newSlots { readers += waiting.removeValue(forKey: producer) ?? [] }
        var added: Set<[Int]> = []
        var removed: Set<[Int]> = []
        for reader in Self.viewOrder(Set(readers), in: graph) {
            let producers = graph.states[reader]?.dependencies ?? graph.registrations[reader]?.dependencies ?? []
            var now: Set<[Int]> = []
            if let consumer = slots[reader] {
                for producer in producers {
                    guard let from = slots[producer] else {
                        waiting[producer, default: []].insert(reader)
                        continue
                    }
                    let edge = [from, consumer]
                    if now.insert(edge).inserted { standing(edge) }
                }
            }
            let before = edgesOfReader[reader] ?? []
            guard before != now else { continue }
            edgesOfReader[reader] = now.isEmpty ? nil : now
            for edge in now.subtracting(before) where removed.remove(edge) == nil { added.insert(edge) }
            for edge in before.subtracting(now) where added.remove(edge) == nil { removed.insert(edge) }
        }
        edges.formUnion(added)
        edges.subtract(removed)
        changes.addedEdges = added.sorted { $0.lexicographicallyPrecedes($1) }
        changes.removedEdges = removed.sorted { $0.lexicographicallyPrecedes($1) }
        return changes
    }

    /// `ids` in the order a whole view lists their edges: live states by id, then live
    /// registrations by id; ids no longer live last, since they read nothing.
    private static func viewOrder(_ ids: Set<NodeID>, in graph: GraphSnapshot) -> [NodeID] {
        ids.sorted { lhs, rhs in
            let left = graph.states[lhs] != nil ? 0 : graph.registrations[lhs] != nil ? 1 : 2
            let right = graph.states[rhs] != nil ? 0 : graph.registrations[rhs] != nil ? 1 : 2
            return left != right ? left < right : lhs < rhs
        }
    }
}
