/// The state graph of one runtime: the state table, the settle machinery and the turn engine.
///
/// Everything here runs on the MainActor; `Cogs` and the controllers are thin facades over it.
@usableFromInline
final class Graph {
    /// The attached probe, as `Cogs.probe` sets it.
    var attachedProbe: (any CogProbe)?

    /// The probe every site calls: `probe?.record(...)` is one load and one branch when none is
    /// attached, and the event is never built. Building with `-D COG_PROBES_COMPILED_OUT` makes
    /// this a constant nil so every site folds away; that build exists only to measure what the
    /// sites cost (cog-bench), and never records.
    var probe: (any CogProbe)? {
        @inline(__always) get {
            #if COG_PROBES_COMPILED_OUT
                return nil
            #else
                return attachedProbe
            #endif
        }
    }
    /// The external `@Observable` properties selectors track (`c.track`), by model and property.
    var externalBridges: [ExternalPropertyIdentity: AnyObject] = [:]
    /// The closure reads selectors track (`c.track(model) { … }`), by selector and call site.
    var externalReadBridges: [ExternalReadIdentity: AnyObject] = [:]
    /// One-shot signals tests are waiting for, by the point that fires them.
    var acknowledgements: [CogAcknowledgementPoint: () -> Void] = [:]
    /// Test seam: when set, a failure is reported here and the runtime recovers instead of trapping.
    var diagnosticHandler: ((CogDiagnostic) -> Void)?
    /// Test seam: when set, async generations await it instead of running their work (replay).
    var workStandIn: (any CogWorkStandIn)?

    // MARK: State table

    @exclusivity(unchecked) private var keylessSlots: ContiguousArray<Node?> = []
    /// Keyed states by descriptor slot, then key: an array, like `keylessSlots`, so a keyed
    /// read hashes its key once rather than its slot and then its key.
    @exclusivity(unchecked) private var keyedSlots: ContiguousArray<[StateKey: Node]> = []
    @exclusivity(unchecked) private var nextNodeID = 1
    /// Every state and reaction in creation order.
    @exclusivity(unchecked) private(set) var nodeCount = 0

    // MARK: Settle and tracking scratch (see Graph+Settle.swift)

    /// Consumers whose selector or reaction body is running, innermost last.
    @exclusivity(unchecked) var trackingStack: ContiguousArray<Node> = []
    @exclusivity(unchecked) var settleStack: ContiguousArray<(node: Node, index: Int)> = []
    @exclusivity(unchecked) var newDependencies: ContiguousArray<Dependency> = []
    @exclusivity(unchecked) var runStamp = 0
    /// How many first computations are running inside each other now (see `coldNestingBound`).
    @exclusivity(unchecked) var coldDepth = 0

    // MARK: Turns (see Graph+Turns.swift)

    @exclusivity(unchecked) var phase: TurnPhase = .idle
    @exclusivity(unchecked) var currentTurn: TurnInProgress?
    /// Sources the current turn wrote, in first-write order; its flush empties it.
    @exclusivity(unchecked) var turnWritten: ContiguousArray<Node> = []
    /// The flush's scratch: the written sources whose value or status changed.
    @exclusivity(unchecked) var changedSources: ContiguousArray<(node: Node, result: CommitResult)> = []
    @exclusivity(unchecked) var nextTurnID = 1
    @exclusivity(unchecked) var queuedTurns: [QueuedTurn] = []
    @exclusivity(unchecked) var queueHead = 0
    @exclusivity(unchecked) var pendingBoundaries: ContiguousArray<Node> = []
    @exclusivity(unchecked) var pendingReactions: ContiguousArray<ReactionNode> = []
    @exclusivity(unchecked) var reactions: [ReactionNode] = []
    @exclusivity(unchecked) var nextReactionOrder = 0
    @exclusivity(unchecked) var markStack: ContiguousArray<Node> = []
    /// True while mechanisms run their `operate`: their turns have the assembly origin.
    @exclusivity(unchecked) var isAssembling = false

    // MARK: Lifetimes (see Graph+Lifetime.swift)

    var clock: CogClock
    var defaultGrace: Duration
    /// States waiting out a grace period, in no order; each knows its place (`graceSlot`), so
    /// a state that starts and ends its wait again and again costs no hashing.
    @exclusivity(unchecked) var graceWaiting: [Node] = []
    /// Whether a task will give the waiting states their sleepers once the MainActor is free.
    var isGraceArmingScheduled = false
    /// The windows opened and not yet booked, on a clock that books sleeps (the test clock;
    /// `Graph+GraceBooking.swift`).
    var unbookedGrace = UnbookedGraceWindows()
    /// Windows kept (held again) before their sleeper was armed, on a booking clock: release
    /// checks reported when the sleepers are armed.
    var unarmedReleaseChecks = 0
    /// Mechanism owners, so tearing down retires them (cancelling their tasks).
    var mechanismOwners: [RegistrationOwner] = []
    /// The mechanisms as they were handed to assembly: the runtime keeps them (and what they
    /// own) alive as long as itself, and lets them go only after their tasks are cancelled.
    var mechanisms: [any Mechanism] = []
    /// Turns run since the runtime was last idle, for the runaway-chain diagnostic.
    var turnsSinceIdle: [String] = []
    /// The chain of turns and reactions running now (`CogTurnChainDiagnostic`).
    var turnChain = TurnChainRecord()
    /// How many chains ran past the threshold, and the newest one's warning.
    var turnChainWarnings = 0
    var lastTurnChainWarning: CogTurnChainWarning?
    /// What the runtime's tasks hold instead of a weak reference to the graph.
    private(set) lazy var lifeline = GraphLifeline(graph: self)

    init(clock: CogClock, grace: Duration) {
        self.clock = clock
        self.defaultGrace = grace
        clock.bookings?.addSource(lifeline)
    }

    isolated deinit {
        lifeline.isAlive = false
    }

    /// Retires every mechanism (cancelling its tasks) and detaches every edge so the nodes, which
    /// link each other unowned, can go with the table.
    func tearDown() {
        lifeline.isAlive = false
        externalBridges.removeAll()
        externalReadBridges.removeAll()
        for node in graceWaiting { stopGrace(node, reportingCheck: false) }
        // Every owner is retired before any is cleaned up: a task cancelled below may look at a
        // cousin's controller, and must not find it live.
        for owner in mechanismOwners { owner.markRetired() }
        for owner in mechanismOwners { owner.release(in: self) }
        mechanismOwners.removeAll()
        // Their tasks are cancelled: now what a registration might still have used can go.
        mechanisms.removeAll()
        forEachNode { node in
            node.dependencies.removeAll()
            node.consumers.removeAll()
        }
        keylessSlots.removeAll()
        keyedSlots.removeAll()
        reactions.removeAll()
        reached(.deinitCleanup)
        acknowledgements.removeAll()
    }

    func forEachNode(_ body: (Node) -> Void) {
        for case let node? in keylessSlots { body(node) }
        for table in keyedSlots { for node in table.values { body(node) } }
        for reaction in reactions { body(reaction) }
    }

    func claimNodeID() -> Int {
        defer { nextNodeID += 1 }
        return nextNodeID
    }

    // MARK: Lookup

    /// The state `descriptor` names for `key`, created on first use.
    @usableFromInline
    ///
    /// A keyless declaration's states are found without touching `key` (always nil for them):
    /// copying a `StateKey?` in code that cannot see its layout costs a value-witness call.
    func node(_ descriptor: AnyDescriptor, key: StateKey?) -> Node {
        let slot = descriptor.slot
        guard descriptor.isKeyed else {
            if slot < keylessSlots.count, let node = keylessSlots[slot] { return node }
            return install(descriptor.makeNode(id: claimNodeID(), key: nil))
        }
        if slot < keyedSlots.count, let key, let node = keyedSlots[slot][key] { return node }
        return install(descriptor.makeNode(id: claimNodeID(), key: key))
    }

    /// Takes a released node out of the table.
    func remove(_ node: Node) {
        if node.descriptor.isKeyed, let key = node.key {
            if node.descriptor.slot < keyedSlots.count { keyedSlots[node.descriptor.slot][key] = nil }
        } else {
            keylessSlots[node.descriptor.slot] = nil
        }
        nodeCount -= 1
    }

    /// The state `descriptor` names for `key` if it exists, without creating it.
    func existingNode(_ descriptor: AnyDescriptor, key: StateKey?) -> Node? {
        if let key { return descriptor.slot < keyedSlots.count ? keyedSlots[descriptor.slot][key] : nil }
        return descriptor.slot < keylessSlots.count ? keylessSlots[descriptor.slot] : nil
    }

    /// Places a freshly made node in the table and tells the probe.
    @discardableResult
    func install(_ node: Node) -> Node {
        let slot = node.descriptor.slot
        if node.descriptor.isKeyed, let key = node.key {
            if slot >= keyedSlots.count {
                keyedSlots.append(contentsOf: repeatElement([:], count: slot - keyedSlots.count + 1))
            }
            keyedSlots[slot][key] = node
        } else {
            if slot >= keylessSlots.count {
                keylessSlots.append(contentsOf: repeatElement(nil, count: slot - keylessSlots.count + 1))
            }
            keylessSlots[slot] = node
        }
        nodeCount += 1
        if let probe {
            node.reportCreated(to: probe, as: stateInfo(node))
            if let status = node.statusFingerprint {
                probe.record(
                    .asyncStatus(
                        state: CogStateID(node.id), kind: status.kind.rawValue,
                        isLoading: status.isLoading, hasSucceeded: status.hasSucceeded, error: nil))
            }
        }
        return node
    }

    /// Tells a probe attached to a runtime that already holds states (seeded ones, say) about
    /// them, in id order, as if it had seen them created, so its picture starts complete.
    func announceExistingStates(to probe: any CogProbe) {
        var existing: [Node] = []
        forEachNode { node in if node.descriptor.shape != .reaction { existing.append(node) } }
        existing.sort { $0.id < $1.id }
        for node in existing {
            node.reportCreated(to: probe, as: stateInfo(node))
            if let status = node.statusFingerprint {
                probe.record(
                    .asyncStatus(
                        state: CogStateID(node.id), kind: status.kind.rawValue,
                        isLoading: status.isLoading, hasSucceeded: status.hasSucceeded, error: nil))
            }
        }
        for node in existing where !node.dependencies.isEmpty {
            probe.recordDependenciesChanged(
                consumer: CogStateID(node.id),
                producers: CogProducerList(node.dependencies))
        }
    }

    /// The identity and description a probe sees for `node`.
    func stateInfo(_ node: Node) -> CogStateInfo {
        CogStateInfo(
            id: CogStateID(node.id),
            declarationInfo: node.descriptor.declarationInfo(defaultGrace: defaultGrace, policy: node.asyncPolicy),
            key: node.key.map(\.text))
    }
}
