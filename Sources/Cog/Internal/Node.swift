/// Where a node stands in the lazy pull: CLEAN needs nothing, CHECK must ask its dependencies
/// whether any changed, DIRTY must run again.
enum SettleMark: UInt8 {
    case clean
    case check
    case dirty
}

/// One dependency of a consumer: the producer and the producer version the consumer last saw.
struct Dependency {
    /// Unowned and unchecked: every node is owned by its runtime's state table, and a node leaves
    /// that table only after its edges have been detached, so a linked producer is always alive.
    unowned(unsafe) let producer: Node
    var observedVersion: Int
    /// Scratch for the run that recorded this dependency: the producer's read stamp before it.
    var savedStamp: Int
}

/// A consumer link held by a producer, under the same ownership rule as `Dependency`.
struct ConsumerLink {
    unowned(unsafe) let consumer: Node
}

/// One state (or reaction) in a runtime's graph: its settle mark, version and edges.
///
/// Subclasses hold the typed value; the graph algorithms in `Graph` work on this base class.
@usableFromInline
class Node {
    let id: Int
    let descriptor: AnyDescriptor
    let key: AnyHashable?
    @exclusivity(unchecked) var mark: SettleMark
    /// Bumped whenever the value really changes; consumers compare it with what they observed.
    @exclusivity(unchecked) var version = 0
    /// Producers read in the last run, in read order, without duplicates.
    @exclusivity(unchecked) var dependencies: ContiguousArray<Dependency> = []
    /// Consumers whose last run read this node, in the order they first linked.
    @exclusivity(unchecked) var consumers: ContiguousArray<ConsumerLink> = []
    /// The stamp of the run that last read this node (duplicate-read detection).
    @exclusivity(unchecked) var readStamp = 0
    /// The stamp of the run that is reconciling this node out of its dependencies.
    @exclusivity(unchecked) var staleStamp = 0
    /// True while this node's selector or reaction body runs: reading it then is a cycle.
    @exclusivity(unchecked) var isRunning = false
    /// True while a CHECK walk is asking this node's dependencies: reading it then is a cycle too.
    @exclusivity(unchecked) var isSettling = false
    /// While running: how deep the settle stack was when the run began (to order a cycle's path).
    @exclusivity(unchecked) var settleDepthAtRun = 0
    /// True while this source has a value staged in the turn in progress.
    @usableFromInline @exclusivity(unchecked) var isStaged = false
    /// The Observation boundary, once a UI read has pinned this state.
    @exclusivity(unchecked) var boundary: Boundary?
    /// While running: how many of the previous dependencies this run has re-read in order.
    @exclusivity(unchecked) var runCursor = 0
    /// While running: this run's unique stamp, and where its new dependencies start in the scratch.
    @exclusivity(unchecked) var runStamp = 0
    @exclusivity(unchecked) var scratchBase = 0
    /// The producer whose change last marked this node dirty (what a recompute reports as its trigger).
    @exclusivity(unchecked) var dirtiedBy = 0

    init(id: Int, descriptor: AnyDescriptor, key: AnyHashable?, mark: SettleMark) {
        self.id = id
        self.descriptor = descriptor
        self.key = key
        self.mark = mark
    }

    /// The label a person reads: the declaration's label, and `[key]` for a keyed state.
    var label: String { Node.label(descriptor: descriptor, key: key) }

    static func label(descriptor: AnyDescriptor, key: AnyHashable?) -> String {
        guard let key else { return descriptor.label }
        return "\(descriptor.label)[\(key.base)]"
    }

    /// Runs the selector (or reaction) once; returns whether the value changed.
    func run(in graph: Graph) -> Bool {
        fatalError("Node.run must be overridden")
    }

    /// The value as the runtime holds it, boxed for a probe; nil before the first run.
    var anyValue: Any? { nil }

    /// Commits the value staged in the finishing turn; returns whether it really changed.
    func commitStaged(in graph: Graph) -> Bool { false }
}

/// A node that holds a value of one type.
@usableFromInline
class ValueNode<Value>: Node {
    /// The value, initialized once `hasValue` is true (an automatic state has none before its
    /// first run). A pointer rather than an optional so the unspecialized runtime never builds
    /// `Optional<Value>` metadata on the hot path.
    @usableFromInline final let storage: UnsafeMutablePointer<Value>
    @usableFromInline @exclusivity(unchecked) final var hasValue: Bool
    let equals: ((Value, Value) -> Bool)?

    init(id: Int, descriptor: AnyDescriptor, key: AnyHashable?, value: Value?, equals: ((Value, Value) -> Bool)?,
         mark: SettleMark) {
        storage = .allocate(capacity: 1)
        if let value {
            storage.initialize(to: value)
            hasValue = true
        } else {
            hasValue = false
        }
        self.equals = equals
        super.init(id: id, descriptor: descriptor, key: key, mark: mark)
    }

    isolated deinit {
        if hasValue { storage.deinitialize(count: 1) }
        storage.deallocate()
    }

    /// Replaces (or first sets) the value.
    final func store(_ new: Value) {
        if hasValue {
            storage.pointee = new
        } else {
            storage.initialize(to: new)
            hasValue = true
        }
    }

    /// Whether `new` differs from `old`: the declaration's equality, or always for non-equatable values.
    final func differs(_ old: Value, _ new: Value) -> Bool {
        guard let equals else { return true }
        return !equals(old, new)
    }

    override var anyValue: Any? { hasValue ? storage.pointee as Any : nil }
}

/// A writable source; its mark is always clean.
@usableFromInline
final class SourceNode<Value>: ValueNode<Value> {
    /// The value staged by the turn in progress, if this source was written in it.
    @usableFromInline @exclusivity(unchecked) final var staged: Value?

    init(id: Int, descriptor: AnyDescriptor, key: AnyHashable?, value: Value, equals: ((Value, Value) -> Bool)?) {
        super.init(id: id, descriptor: descriptor, key: key, value: value, equals: equals, mark: .clean)
    }

    override func commitStaged(in graph: Graph) -> Bool {
        isStaged = false
        guard case .some(let new) = staged else { return false }
        staged = nil
        let old = storage.pointee
        guard differs(old, new) else {
            graph.probe?.record(.writeDiscarded(state: CogStateID(id), value: new))
            return false
        }
        storage.pointee = new
        version += 1
        graph.probe?.record(.write(state: CogStateID(id), old: old, new: new))
        return true
    }

    /// Replaces the value outside any turn (seeding); returns whether it changed.
    func seed(_ new: Value) -> Bool {
        guard differs(storage.pointee, new) else { return false }
        storage.pointee = new
        version += 1
        return true
    }
}

/// A cached automatic value; starts dirty so the first read computes it.
final class ComputedNode<Value>: ValueNode<Value> {
    let compute: (Reader<Value>) -> Value

    init(id: Int, descriptor: AnyDescriptor, key: AnyHashable?, compute: @escaping (Reader<Value>) -> Value,
         equals: ((Value, Value) -> Bool)?) {
        self.compute = compute
        super.init(id: id, descriptor: descriptor, key: key, value: nil, equals: equals, mark: .dirty)
    }

    override func run(in graph: Graph) -> Bool {
        let new = compute(Reader(graph: graph, consumer: self))
        guard hasValue else {
            storage.initialize(to: new)
            hasValue = true
            return true
        }
        let changed = differs(storage.pointee, new)
        storage.pointee = new
        return changed
    }
}
