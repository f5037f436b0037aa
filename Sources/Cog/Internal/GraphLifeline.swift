/// How the runtime's own tasks (grace wake-ups, async work, mechanism tasks) reach their graph
/// while it is in use, without a weak reference to it. A weak reference moves an object's
/// reference count into a side table, after which every retain and release of the graph takes
/// the slow path; the graph is retained on hot paths, so that cost showed up everywhere.
final class GraphLifeline {
    /// Read only through `current`: valid while `isAlive`, which the graph clears when it is torn
    /// down or freed. Both happen on the MainActor, where the tasks read it too.
    private unowned(unsafe) let graph: Graph
    var isAlive = true

    init(graph: Graph) {
        self.graph = graph
    }

    /// The graph, while it lives.
    var current: Graph? { isAlive ? graph : nil }
}
