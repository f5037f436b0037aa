import CogTraceFormat

/// What a new dependency list changes against the graph: the edges added and removed, in the
/// order the trace writes them, and the registration whose leases follow its edges. Read in
/// place, so a list costs no arrays beyond the two it compares.
struct DependencyChange {
    /// The name of the registration holding the list, when a registration holds it.
    let holder: String?
    private let previous: ArraySlice<NodeID>
    private let producers: ArraySlice<NodeID>

    /// The change from `previous` (read where it lies) to `producers`, with the name of the
    /// registration holding the list, if one does.
    init(holder: String?, previous: ArraySlice<NodeID>, producers: [NodeID]) {
        self.holder = holder
        self.previous = previous
        self.producers = producers[...]
    }

    /// The change to `registration`'s list, or from none when the consumer is neither a live
    /// state nor a live registration.
    init(of registration: GraphSnapshot.Registration?, to producers: [NodeID]) {
        self.init(holder: registration?.name, previous: registration?.dependencies[...] ?? [], producers: producers)
    }

    /// Each producer the new list has and the old one lacks, in the new list's order.
    func forEachAdded(_ body: (NodeID) -> Void) { Self.forEach(in: producers, missingFrom: previous, body) }

    /// Each producer the old list had and the new one lacks, in the old list's order.
    func forEachRemoved(_ body: (NodeID) -> Void) { Self.forEach(in: previous, missingFrom: producers, body) }

    private static func forEach(
        in list: ArraySlice<NodeID>, missingFrom other: ArraySlice<NodeID>, _ body: (NodeID) -> Void
    ) {
        guard !list.isEmpty else { return }
        // Most lists are short: scanning them costs less than hashing them into a set.
        if other.count <= 16 && list.count <= 16 {
            for id in list where !other.contains(id) { body(id) }
        } else {
            let otherSet = Set(other)
            for id in list where !otherSet.contains(id) { body(id) }
        }
    }
}
