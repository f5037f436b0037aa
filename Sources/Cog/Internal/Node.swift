/// Where a node stands in the lazy pull: CLEAN needs nothing, CHECK must ask its dependencies
/// whether any changed, DIRTY must run again.
enum SettleMark: UInt8 {
    case clean
    case check
    case dirty
}

/// One dependency of a consumer: the producer and the producer version the consumer last saw.
nonisolated struct Dependency {
    /// Unowned and unchecked: every node is owned by its runtime's state table, and a node leaves
    /// that table only after its edges have been detached, so a linked producer is always alive.
    unowned(unsafe) let producer: Node
    var observedVersion: Int
    /// Whether the consumer read the producer's async status (compared with `statusVersion`)
    /// rather than only its value (compared with `version`).
    var observesStatus: Bool
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
    /// Nonisolated so a probe's storage, which is, can read a lent producer list.
    nonisolated let id: Int
    let descriptor: AnyDescriptor
    let key: StateKey?
    @exclusivity(unchecked) var mark: SettleMark
    /// Bumped whenever the value really changes; consumers compare it with what they observed.
    @exclusivity(unchecked) var version = 0
    /// For an async state: bumped whenever its status changes (the value is part of the status).
    @exclusivity(unchecked) var statusVersion = 0
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
    /// The field-by-field Observation boundary of an async state's status lens, once read at the UI.
    @exclusivity(unchecked) var statusBoundary: StatusBoundary?
    /// While running: how many of the previous dependencies this run has re-read in order.
    @exclusivity(unchecked) var runCursor = 0
    /// While running: this run's unique stamp, and where its new dependencies start in the scratch.
    @exclusivity(unchecked) var runStamp = 0
    @exclusivity(unchecked) var scratchBase = 0
    /// When an unused while-observed state will be released (offset on the runtime's clock).
    @exclusivity(unchecked) var graceDeadline: Duration?
    /// Its place in the runtime's list of waiting states; -1 when it is not waiting.
    @exclusivity(unchecked) var graceSlot = -1
    /// The sleeper of that grace window.
    @exclusivity(unchecked) var graceTimer: GraceTimer?
    /// The window's booking on a clock that books sleeps (the test clock); -1 while unbooked.
    @exclusivity(unchecked) var graceBooking = -1
    /// The producer whose change last marked this node dirty (what a recompute reports as its trigger).
    @exclusivity(unchecked) var dirtiedBy = 0

    nonisolated deinit {}

    init(id: Int, descriptor: AnyDescriptor, key: consuming StateKey?, mark: SettleMark) {
        self.id = id
        self.descriptor = descriptor
        self.key = key
        self.mark = mark
    }

    /// The label a person reads: the declaration's label, and `[key]` for a keyed state.
    var label: String { Node.label(descriptor: descriptor, key: key) }

    static func label(descriptor: AnyDescriptor, key: StateKey?) -> String {
        guard let key else { return descriptor.label }
        return descriptor.label + "[" + key.text + "]"
    }

    /// Runs the selector (or reaction) once; returns whether the value changed.
    func run(in graph: Graph) -> Bool {
        fatalError("Node.run must be overridden")
    }

    /// The value as the runtime holds it, boxed for a probe; nil before the first run.
    var anyValue: Any? { nil }

    /// Tells `probe` the node was created, with its value; a typed node overrides it to lend
    /// the value unboxed.
    func reportCreated(to probe: any CogProbe, as info: CogStateInfo) {
        probe.record(.stateCreated(info, value: anyValue))
    }

    /// Recomputes (`Graph.runOnce`) and tells `probe`, with the old and new values; a typed
    /// node overrides it to hand them over unboxed.
    func recomputeReporting(to probe: any CogProbe, in graph: Graph, trigger: CogStateID?) {
        let old = anyValue
        let changed = graph.runOnce(self)
        probe.record(.recompute(state: CogStateID(id), old: old, new: anyValue, changed: changed, trigger: trigger))
    }

    /// Commits what the finishing turn staged; says what really changed.
    func commitStaged(in graph: Graph) -> CommitResult { .unchanged }

    /// The current status fields of an async state, for field-wise notification; nil otherwise.
    var statusFingerprint: StatusFingerprint? { nil }

    /// The async policy of an async state; nil for every other node.
    var asyncPolicy: AsyncPolicyKind? { nil }

    /// Stops whatever work the state owns when it is released (an async state's generations).
    func releaseWork(in graph: Graph) {}

    /// Whether anything a UI reads is pinned behind a boundary of this node.
    final var hasBoundary: Bool { boundary != nil || statusBoundary != nil }
}

/// What committing a staged write changed.
enum CommitResult {
    /// Nothing: no write, or an equal value.
    case unchanged
    /// Only an async state's status (consumers of the value are unaffected).
    case statusOnly
    /// The value (and so the status, for an async state).
    case value
}
