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
    public var states: NodeTable<State> = [:]
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
        applyEvent(event)
    }

    /// A state came to be with `value` (a `created` event).
    public mutating func recordCreation(of id: NodeID, value: TraceValue?) {
        states.set(State(id: id, value: value), for: id)
    }

    /// A source took `value` (a `write` event): one version more.
    public mutating func recordWrite(of id: NodeID, value: TraceValue) {
        guard let position = states.position(of: id) else { return }
        states.update(at: position) { state in
            state.value = value
            state.version += 1
        }
    }

    /// A state ran (a `recompute` event): its value, a version more when it `changed`, and the
    /// versions of its dependencies it saw.
    public mutating func recordRun(of id: NodeID, value: TraceValue?, changed: Bool) {
        guard let position = states.position(of: id) else { return }
        states.update(at: position) { state in
            state.value = value
            if changed { state.version += 1 }
        }
        observe(at: position)
    }

    /// A state's grace window began (a `graceScheduled` event).
    public mutating func recordGraceScheduled(of id: NodeID) {
        updateState(id) { $0.isInGrace = true }
    }

    /// A state was seeded with `value` (a `seeded` event): a version more when it differs.
    package mutating func recordSeed(of id: NodeID, value: TraceValue) {
        updateState(id) { state in
            if state.value != value {
                state.value = value
                state.version += 1
            }
        }
    }

    /// A UI read pinned a state (a `pinned` event).
    package mutating func recordPin(of id: NodeID) {
        updateState(id) { $0.isPinned = true }
    }

    /// A state's grace window ended (a `graceExpired` event).
    package mutating func recordGraceExpired(of id: NodeID) {
        updateState(id) { $0.isInGrace = false }
    }

    /// A state was released (a `released` event).
    package mutating func recordRelease(of id: NodeID) {
        states[id] = nil
    }

    /// Changes who holds the live state `id`.
    package mutating func updateLeases(of id: NodeID, _ body: (inout [String]) -> Void) {
        updateState(id) { body(&$0.leases) }
    }

    /// Changes the async status of the live state `id`.
    package mutating func updateAsync(of id: NodeID, _ body: (inout AsyncStatus?) -> Void) {
        updateState(id) { body(&$0.async) }
    }

    /// Changes the state `id` where it is stored, if it is live.
    private mutating func updateState(_ id: NodeID, _ body: (inout State) -> Void) {
        guard let position = states.position(of: id) else { return }
        states.update(at: position, body)
    }

    /// A state's or registration's whole new dependency list (a `deps` event). With
    /// `notingVersions` false the state's seen versions are left for its run recorded right
    /// after (a `recompute` of the same state notes them again, with nothing changed between).
    public mutating func recordDependencies(
        of consumer: NodeID, _ producers: [NodeID], notingVersions: Bool = true
    ) {
        if let position = states.position(of: consumer) {
            states.update(at: position) { $0.dependencies = producers }
            if notingVersions { observe(at: position) }
        } else {
            registrations[consumer]?.dependencies = producers
        }
    }

    /// Records that the state at `position` just ran: it has seen its dependencies' current
    /// versions. Every access goes through the table's storage in place: copying a state out
    /// to read one field was once most of what keeping a snapshot cost a stream writer.
    private mutating func observe(at position: Int) {
        var dependencies: [NodeID] = []
        var observed: [Int] = []
        states.update(at: position) { state in
            swap(&dependencies, &state.dependencies)
            swap(&observed, &state.observedVersions)
        }
        func version(of producer: NodeID) -> Int {
            states.position(of: producer).map { states.read(at: $0) { $0.version } } ?? 0
        }
        if observed.count == dependencies.count {
            // A rerun over the same number of dependencies, the common case: overwritten where
            // they lie, since emptying and refilling the array went through its generic
            // `replaceSubrange` and a uniqueness check per element (about 80 and 20 instructions).
            for index in dependencies.indices { observed[index] = version(of: dependencies[index]) }
        } else {
            observed.removeAll(keepingCapacity: true)
            observed.reserveCapacity(dependencies.count)
            for producer in dependencies { observed.append(version(of: producer)) }
        }
        states.update(at: position) { state in
            swap(&dependencies, &state.dependencies)
            swap(&observed, &state.observedVersions)
        }
    }
}

extension GraphSnapshot: EventApplying {}
