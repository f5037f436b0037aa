/// The recorded graph at one moment: every live state with its value, version, dependencies in
/// read order, leases and async status, and every live registration. A keyframe is one of
/// these; applying a turn's events moves it forward.
public struct GraphSnapshot: Equatable {
    /// One live state.
    public struct State: Equatable {
        public let id: NodeID
        public var value: TraceValue?
        public var version = 0
        /// Producers, in the order the last run read them.
        public var dependencies: [NodeID] = []
        /// The version of each dependency the last run saw, in `dependencies` order (to tell
        /// whether a read would re-run it). Kept as an array beside the dependencies, since a
        /// writer updates it at every run and a dictionary would be rebuilt each time.
        public var observedVersions: [Int] = []
        /// Who holds this state: reactions, watches, scopes and exports by name.
        public var leases: [String] = []
        /// Whether a UI read pinned it.
        public var isPinned = false
        /// Whether it is waiting out a grace period before release.
        public var isInGrace = false
        /// Its async status, for an async state.
        public var async: AsyncStatus?

        public init(id: NodeID, value: TraceValue?) {
            self.id = id
            self.value = value
        }

        /// The version of `producer` the last run saw; nil when it is not a dependency, or
        /// the snapshot does not say.
        public func observedVersion(of producer: NodeID) -> Int? {
            guard let index = dependencies.firstIndex(of: producer), index < observedVersions.count else { return nil }
            return observedVersions[index]
        }
    }

    /// An async state's lifecycle.
    public struct AsyncStatus: Equatable {
        public var kind = AsyncStatusKind.pending
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
        public let id: NodeID
        public let name: String
        public let kind: RegistrationKind
        public var dependencies: [NodeID] = []

        public init(id: NodeID, name: String, kind: RegistrationKind) {
            self.id = id
            self.name = name
            self.kind = kind
        }
    }

    /// Live states by id.
    public var states: [NodeID: State] = [:]
    /// Live registrations by id.
    public var registrations: [NodeID: Registration] = [:]

    /// An empty graph.
    public init() {}

    /// Where a state stands for a read now: `clean`, `check` (a dependency further up changed),
    /// or `dirty` (a dependency it read changed since its last run).
    public func settleMark(of id: NodeID) -> String {
        settleMarks(of: [id])[id] ?? "clean"
    }

    /// The settle marks of `ids` and of everything upstream of them, found in one walk that
    /// visits each state once (a diamond or a long chain costs its size, not its paths), with an
    /// explicit stack so a deep chain cannot overflow the call stack. A dependency cycle, which a
    /// recording cannot hold, counts as clean.
    public func settleMarks(of ids: some Sequence<NodeID>) -> [NodeID: String] {
        var marks: [NodeID: String] = [:]
        for root in ids where marks[root] == nil {
            var stack: [(id: NodeID, next: Int)] = [(root, 0)]
            var onStack: Set<NodeID> = [root]
            while let (id, next) = stack.last {
                guard let state = states[id] else {
                    marks[id] = "clean"
                    onStack.remove(stack.removeLast().id)
                    continue
                }
                if next == 0,
                    state.dependencies.contains(where: { producer in
                        states[producer].map { $0.version != state.observedVersion(of: producer) } ?? false
                    })
                {
                    marks[id] = "dirty"
                    onStack.remove(stack.removeLast().id)
                    continue
                }
                if next < state.dependencies.count {
                    stack[stack.count - 1].next += 1
                    let producer = state.dependencies[next]
                    if marks[producer] == nil, states[producer] != nil, onStack.insert(producer).inserted {
                        stack.append((producer, 0))
                    }
                    continue
                }
                let upstreamChanged = state.dependencies.contains { marks[$0, default: "clean"] != "clean" }
                marks[id] = upstreamChanged ? "check" : "clean"
                onStack.remove(stack.removeLast().id)
            }
        }
        return marks
    }

    /// Moves the snapshot forward by one event.
    public mutating func apply(_ event: TraceEvent) {
        switch event {
        case .stateCreated(let id, let value):
            recordCreation(of: id, value: value)
        case .seeded(let id, let value):
            if states[id]?.value != value {
                states[id]?.value = value
                states[id]?.version += 1
            }
        case .write(let id, _, let new):
            recordWrite(of: id, value: new)
        case .recompute(let id, _, let new, let changed, _):
            recordRun(of: id, value: new, changed: changed)
        case .dependencies(let consumer, let producers):
            recordDependencies(of: consumer, producers)
        case .boundaryAttached(let id):
            states[id]?.isPinned = true
        case .leaseAcquired(let id, let holder):
            states[id]?.leases.append(holder)
        case .leaseReleased(let id, let holder):
            if let index = states[id]?.leases.firstIndex(of: holder) { states[id]?.leases.remove(at: index) }
        case .graceScheduled(let id, _):
            recordGraceScheduled(of: id)
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
            registrations[id] = Registration(id: id, name: name, kind: .scopeOpening)
        case .taskStarted(let id, let name):
            registrations[id] = Registration(id: id, name: name, kind: .task)
        case .unregistered(let id), .scopeRetired(let id), .taskCancelled(let id), .taskFinished(let id):
            registrations[id] = nil
        case .writeDiscarded, .edgeAdded, .edgeRemoved, .notice, .offer, .reactionRun, .watchRun, .leaseRenewed,
            .generationRejected, .refreshResolved, .turnDropped, .diagnostic:
            break
        }
    }

    /// A state came to be with `value` (a `created` event).
    public mutating func recordCreation(of id: NodeID, value: TraceValue?) {
        states[id] = State(id: id, value: value)
    }

    /// A source took `value` (a `write` event): one version more.
    public mutating func recordWrite(of id: NodeID, value: TraceValue) {
        guard let index = states.index(forKey: id) else { return }
        states.values[index].value = value
        states.values[index].version += 1
    }

    /// A state ran (a `recompute` event): its value, a version more when it `changed`, and the
    /// versions of its dependencies it saw.
    public mutating func recordRun(of id: NodeID, value: TraceValue?, changed: Bool) {
        guard let index = states.index(forKey: id) else { return }
        states.values[index].value = value
        if changed { states.values[index].version += 1 }
        observe(at: index)
    }

    /// A state's grace window began (a `graceScheduled` event).
    public mutating func recordGraceScheduled(of id: NodeID) {
        guard let index = states.index(forKey: id) else { return }
        Self.inPlace(&states.values[index]) { $0.isInGrace = true }
    }

    /// A state's or registration's whole new dependency list (a `deps` event).
    public mutating func recordDependencies(of consumer: NodeID, _ producers: [NodeID]) {
        if let index = states.index(forKey: consumer) {
            states.values[index].dependencies = producers
            observe(at: index)
        } else {
            registrations[consumer]?.dependencies = producers
        }
    }

    /// Records that the state at `index` just ran: it has seen its dependencies' current
    /// versions. Every access goes through the dictionary's storage in place: reading a field
    /// as `states.values[i].field` copies the whole state out first, which was most of what
    /// keeping a snapshot cost a stream writer.
    private mutating func observe(at index: Dictionary<NodeID, State>.Index) {
        var dependencies: [NodeID] = []
        var observed: [Int] = []
        Self.inPlace(&states.values[index]) { state in
            swap(&dependencies, &state.dependencies)
            swap(&observed, &state.observedVersions)
        }
        observed.removeAll(keepingCapacity: true)
        for producer in dependencies {
            observed.append(states.index(forKey: producer).map { Self.inPlace(&states.values[$0]) { $0.version } } ?? 0)
        }
        Self.inPlace(&states.values[index]) { state in
            swap(&dependencies, &state.dependencies)
            swap(&observed, &state.observedVersions)
        }
    }

    /// Runs `body` on a state where it is stored, without copying it out.
    @inline(__always)
    private static func inPlace<Result>(_ state: inout State, _ body: (inout State) -> Result) -> Result {
        body(&state)
    }
}
