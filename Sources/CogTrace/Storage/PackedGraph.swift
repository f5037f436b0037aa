import CogTraceFormat

/// The graph a converter keeps while it writes, packed for applying every event: a state's
/// fixed fields sit in one table entry with no arrays of its own, its dependency list and the
/// versions it saw in two pools every state shares, and what few states have (leases, a pin,
/// an async status) in a table aside. Creating a state or applying its run then allocates
/// nothing, and dropping a graph of thousands of states frees a handful of arrays: kept as a
/// `GraphSnapshot`, a lattice's graph had cost a stream writer more than a third of its work.
///
/// Events move it through the steps they move a snapshot by (`EventApplying`), and `snapshot`
/// gives that snapshot back, its states in the same order, for a keyframe.
struct PackedGraph {
    /// Where a state's items lie in a pool: `count` used, room for `capacity` from `start`.
    struct PoolRange: Equatable {
        var start = 0
        var count = 0
        var capacity = 0

        var indices: Range<Int> { start..<start + count }
    }

    /// A live state's fields that every state has.
    struct Entry {
        var value: TraceValue?
        var version = 0
        var dependencies = PoolRange()
        var observed = PoolRange()
        var isInGrace = false
    }

    /// What only some states have, kept aside so an entry stays small and free of arrays.
    struct Extras {
        var leases: [String] = []
        var isPinned = false
        var async: GraphSnapshot.AsyncStatus?
    }

    /// Live states by id, in the order a `GraphSnapshot` fed the same events would hold them.
    private(set) var states = NodeTable<Entry>()
    private(set) var extras: [NodeID: Extras] = [:]
    /// Live registrations by id, as a snapshot keeps them.
    var registrations: [NodeID: GraphSnapshot.Registration] = [:]
    /// Every state's dependencies, each at its entry's `dependencies`.
    private(set) var dependencyPool: [NodeID] = []
    /// Every state's seen versions, each at its entry's `observed`.
    private(set) var observedPool: [Int] = []
    /// Pool items no entry uses any more (lists that moved or went with their state), which
    /// `compactIfSparse` gives back once they outnumber the ones in use.
    private var unusedDependencies = 0
    private var unusedObserved = 0

    /// An empty graph.
    init() {}

    /// The graph `snapshot` shows.
    init(_ snapshot: GraphSnapshot) {
        registrations = snapshot.registrations
        for (id, state) in snapshot.states {
            var entry = Entry(value: state.value, version: state.version, isInGrace: state.isInGrace)
            entry.dependencies = Self.append(state.dependencies, to: &dependencyPool)
            entry.observed = Self.append(state.observedVersions, to: &observedPool)
            states.set(entry, for: id)
            if !state.leases.isEmpty || state.isPinned || state.async != nil {
                extras[id] = Extras(leases: state.leases, isPinned: state.isPinned, async: state.async)
            }
        }
    }

    /// How many states are live.
    var count: Int { states.count }

    /// The graph as a snapshot, states in the order this graph holds them.
    var snapshot: GraphSnapshot {
        var snapshot = GraphSnapshot()
        snapshot.registrations = registrations
        for (id, entry) in states {
            var state = GraphSnapshot.State(id: id, value: entry.value)
            state.version = entry.version
            state.dependencies = Array(dependencyPool[entry.dependencies.indices])
            state.observedVersions = Array(observedPool[entry.observed.indices])
            state.isInGrace = entry.isInGrace
            if let extra = extras[id] {
                state.leases = extra.leases
                state.isPinned = extra.isPinned
                state.async = extra.async
            }
            snapshot.states.set(state, for: id)
        }
        return snapshot
    }

    /// What a consumer's new dependency list changes: its previous list is read in place.
    func dependencyChange(of consumer: NodeID, to producers: [NodeID]) -> DependencyChange {
        // States and registrations share one id space, so a state's list has no holder.
        if let position = states.position(of: consumer) {
            let range = states.read(at: position) { $0.dependencies }
            return DependencyChange(holder: nil, previous: dependencyPool[range.indices], producers: producers)
        }
        return DependencyChange(of: registrations[consumer], to: producers)
    }
}

// MARK: - Applying events

// How a write, a run and a seed move a value and its version is `GraphSnapshot`'s rule, stated
// again here for the packed entry: shared as functions in `CogTraceFormat`, the steps cost this
// graph's writer 1.1M more instructions a lattice run (4%) in the copies around the calls.
extension PackedGraph {
    /// A state came to be with `value`, replacing any state of that id.
    mutating func recordCreation(of id: NodeID, value: TraceValue?) {
        if let position = states.position(of: id) {
            release(states.read(at: position) { $0 })
            extras[id] = nil
        }
        states.set(Entry(value: value), for: id)
    }

    /// A source took `value`: one version more.
    mutating func recordWrite(of id: NodeID, value: TraceValue) {
        guard let position = states.position(of: id) else { return }
        states.update(at: position) { entry in
            entry.value = value
            entry.version += 1
        }
    }

    /// A state ran: its value, a version more when it `changed`, and the versions of its
    /// dependencies it saw.
    mutating func recordRun(of id: NodeID, value: TraceValue?, changed: Bool) {
        guard let position = states.position(of: id) else { return }
        states.update(at: position) { entry in
            entry.value = value
            if changed { entry.version += 1 }
        }
        observe(at: position)
    }

    /// A state's or registration's whole new dependency list; without `notingVersions` the
    /// state's seen versions are left for the run recorded right after it.
    mutating func recordDependencies(of consumer: NodeID, _ producers: [NodeID], notingVersions: Bool = true) {
        guard let position = states.position(of: consumer) else {
            registrations[consumer]?.dependencies = producers
            return
        }
        var range = states.read(at: position) { $0.dependencies }
        if producers.count <= range.capacity {
            for (offset, producer) in producers.enumerated() { dependencyPool[range.start + offset] = producer }
            range.count = producers.count
        } else {
            unusedDependencies += range.capacity
            range = Self.append(producers, to: &dependencyPool)
        }
        states.update(at: position) { $0.dependencies = range }
        if notingVersions { observe(at: position) }
        compactIfSparse()
    }

    /// A state's grace window began.
    mutating func recordGraceScheduled(of id: NodeID) {
        guard let position = states.position(of: id) else { return }
        states.update(at: position) { $0.isInGrace = true }
    }

    /// A state was seeded with `value`: a version more when it differs.
    mutating func recordSeed(of id: NodeID, value: TraceValue) {
        guard let position = states.position(of: id) else { return }
        states.update(at: position) { entry in
            if entry.value != value {
                entry.value = value
                entry.version += 1
            }
        }
    }

    /// A UI read pinned a state.
    mutating func recordPin(of id: NodeID) {
        updateExtras(of: id) { $0.isPinned = true }
    }

    /// A state's grace window ended.
    mutating func recordGraceExpired(of id: NodeID) {
        guard let position = states.position(of: id) else { return }
        states.update(at: position) { $0.isInGrace = false }
    }

    /// A state was released: its room in the pools goes with it.
    mutating func recordRelease(of id: NodeID) {
        guard let entry = states.removeValue(forKey: id) else { return }
        release(entry)
        extras[id] = nil
        compactIfSparse()
    }

    /// Changes who holds the live state `id`.
    mutating func updateLeases(of id: NodeID, _ body: (inout [String]) -> Void) {
        updateExtras(of: id) { body(&$0.leases) }
    }

    /// Changes the async status of the live state `id`.
    mutating func updateAsync(of id: NodeID, _ body: (inout GraphSnapshot.AsyncStatus?) -> Void) {
        updateExtras(of: id) { body(&$0.async) }
    }
}

extension PackedGraph: EventApplying {}

// MARK: - Pools

extension PackedGraph {
    /// Notes that the state at `position` just ran: it has seen its dependencies' current
    /// versions, written over its previous ones where they fit.
    private mutating func observe(at position: Int) {
        let (dependencies, previous) = states.read(at: position) { ($0.dependencies, $0.observed) }
        var observed = previous
        if dependencies.count > observed.capacity {
            unusedObserved += observed.capacity
            observed = PoolRange(start: observedPool.count, count: 0, capacity: dependencies.count)
            observedPool.append(contentsOf: repeatElement(0, count: dependencies.count))
        }
        observed.count = dependencies.count
        for offset in 0..<dependencies.count {
            let producer = dependencyPool[dependencies.start + offset]
            observedPool[observed.start + offset] =
                states.position(of: producer).map { states.read(at: $0) { $0.version } } ?? 0
        }
        if observed != previous { states.update(at: position) { $0.observed = observed } }
    }

    /// Lets `entry`'s room in the pools go, its state gone or replaced.
    private mutating func release(_ entry: Entry) {
        unusedDependencies += entry.dependencies.capacity
        unusedObserved += entry.observed.capacity
    }

    /// Changes the extras of the live state `id`, making them when it has none.
    private mutating func updateExtras(of id: NodeID, _ body: (inout Extras) -> Void) {
        guard states.position(of: id) != nil else { return }
        body(&extras[id, default: Extras()])
    }

    /// Appends `items` at the end of `pool`, with room for exactly them.
    private static func append<Items: Collection>(_ items: Items, to pool: inout [Items.Element]) -> PoolRange {
        let range = PoolRange(start: pool.count, count: items.count, capacity: items.count)
        pool.append(contentsOf: items)
        return range
    }

    /// Pool items unused before the pools are rewritten: below it, a few moved lists cost a
    /// little memory; above it, rewriting costs less than a pool mostly of holes.
    static let compactionFloor = 4_096

    /// Rewrites the pools with only the items in use, each state's room trimmed to its count,
    /// once the unused items outnumber them.
    private mutating func compactIfSparse() {
        let unused = unusedDependencies + unusedObserved
        guard unused > Self.compactionFloor, unused > dependencyPool.count + observedPool.count - unused else {
            return
        }
        var dependencies: [NodeID] = []
        var observed: [Int] = []
        dependencies.reserveCapacity(dependencyPool.count - unusedDependencies)
        observed.reserveCapacity(observedPool.count - unusedObserved)
        for position in 0..<states.count {
            let (dependencyRange, observedRange) = states.read(at: position) { ($0.dependencies, $0.observed) }
            let moved = (
                Self.append(dependencyPool[dependencyRange.indices], to: &dependencies),
                Self.append(observedPool[observedRange.indices], to: &observed)
            )
            states.update(at: position) { entry in (entry.dependencies, entry.observed) = moved }
        }
        dependencyPool = dependencies
        observedPool = observed
        unusedDependencies = 0
        unusedObserved = 0
    }
}
