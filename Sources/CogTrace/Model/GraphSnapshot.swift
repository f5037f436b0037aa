/// The recorded graph at one moment: every live state with its value, version, dependencies in
/// read order, leases and async status, and every live registration. A keyframe is one of
/// these; applying a turn's events moves it forward.
public struct GraphSnapshot: Equatable {
    /// One live state.
    public struct State: Equatable {
        public let id: Int
        public var value: TraceValue?
        public var version = 0
        /// Producers, in the order the last run read them.
        public var dependencies: [Int] = []
        /// The version of each dependency the last run saw (to tell whether a read would re-run it).
        public var observedVersions: [Int: Int] = [:]
        /// Who holds this state: reactions, watches, scopes and exports by name.
        public var leases: [String] = []
        /// Whether a UI read pinned it.
        public var isPinned = false
        /// Whether it is waiting out a grace period before release.
        public var isInGrace = false
        /// Its async status, for an async state.
        public var async: AsyncStatus?

        public init(id: Int, value: TraceValue?) {
            self.id = id
            self.value = value
        }
    }

    /// An async state's lifecycle.
    public struct AsyncStatus: Equatable {
        public var kind = "pending"
        public var isLoading = true
        public var hasSucceeded = false
        public var error: String?
        /// The newest generation started.
        public var generation = 0
        /// Generations whose work is running.
        public var inFlight: [Int] = []

        public init() {}
    }

    /// One live registration: a mechanism, reaction, watch, scope (and each opening), task or export.
    public struct Registration: Equatable {
        public let id: Int
        public let name: String
        public let kind: String
        public var dependencies: [Int] = []

        public init(id: Int, name: String, kind: String) {
            self.id = id
            self.name = name
            self.kind = kind
        }
    }

    /// Live states by id.
    public var states: [Int: State] = [:]
    /// Live registrations by id.
    public var registrations: [Int: Registration] = [:]

    /// An empty graph.
    public init() {}

    /// Where a state stands for a read now: `clean`, `check` (a dependency further up changed),
    /// or `dirty` (a dependency it read changed since its last run).
    public func settleMark(of id: Int) -> String {
        var visiting: Set<Int> = []
        return mark(of: id, visiting: &visiting)
    }

    private func mark(of id: Int, visiting: inout Set<Int>) -> String {
        guard let state = states[id], visiting.insert(id).inserted else { return "clean" }
        var result = "clean"
        for producer in state.dependencies {
            guard let upstream = states[producer] else { continue }
            if upstream.version != state.observedVersions[producer] { return "dirty" }
            if mark(of: producer, visiting: &visiting) != "clean" { result = "check" }
        }
        return result
    }

    /// Moves the snapshot forward by one event.
    public mutating func apply(_ event: TraceEvent) {
        switch event {
        case .stateCreated(let id, let value):
            states[id] = State(id: id, value: value)
        case .seeded(let id, let value):
            if states[id]?.value != value {
                states[id]?.value = value
                states[id]?.version += 1
            }
        case .write(let id, _, let new):
            states[id]?.value = new
            states[id]?.version += 1
        case .recompute(let id, _, let new, let changed, _):
            guard states[id] != nil else { return }
            states[id]!.value = new
            if changed { states[id]!.version += 1 }
            observe(id)
        case .dependencies(let consumer, let producers):
            if states[consumer] != nil {
                states[consumer]!.dependencies = producers
                observe(consumer)
            } else {
                registrations[consumer]?.dependencies = producers
            }
        case .boundaryAttached(let id):
            states[id]?.isPinned = true
        case .leaseAcquired(let id, let holder):
            states[id]?.leases.append(holder)
        case .leaseReleased(let id, let holder):
            if let index = states[id]?.leases.firstIndex(of: holder) { states[id]?.leases.remove(at: index) }
        case .graceScheduled(let id, _):
            states[id]?.isInGrace = true
        case .graceExpired(let id):
            states[id]?.isInGrace = false
        case .stateReleased(let id, _):
            states[id] = nil
        case .generationStarted(let id, let generation, _):
            var status = states[id]?.async ?? AsyncStatus()
            status.generation = generation
            status.inFlight.append(generation)
            states[id]?.async = status
        case .generationCancelled(let id, let generation), .generationAccepted(let id, let generation, _):
            states[id]?.async?.inFlight.removeAll { $0 == generation }
        case .asyncStatus(let id, let kind, let isLoading, let hasSucceeded, let error):
            var status = states[id]?.async ?? AsyncStatus()
            status.kind = kind
            status.isLoading = isLoading
            status.hasSucceeded = hasSucceeded
            status.error = error
            states[id]?.async = status
        case .registered(let id, let name, let kind):
            registrations[id] = Registration(id: id, name: name, kind: kind)
        case .scopeOpened(let id, let name, _):
            registrations[id] = Registration(id: id, name: name, kind: "scopeOpening")
        case .taskStarted(let id, let name):
            registrations[id] = Registration(id: id, name: name, kind: "task")
        case .unregistered(let id), .scopeRetired(let id), .taskCancelled(let id), .taskFinished(let id):
            registrations[id] = nil
        case .writeDiscarded, .edgeAdded, .edgeRemoved, .notice, .offer, .reactionRun, .watchRun, .leaseRenewed,
             .generationRejected, .refreshResolved, .turnDropped, .diagnostic:
            break
        }
    }

    /// Records that `id` just ran: it has seen its dependencies' current versions.
    private mutating func observe(_ id: Int) {
        guard let state = states[id] else { return }
        var observed: [Int: Int] = [:]
        for producer in state.dependencies { observed[producer] = states[producer]?.version ?? 0 }
        states[id]!.observedVersions = observed
    }
}
