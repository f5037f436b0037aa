/// The app-owned runtime: it stores every state of the app's graph and runs its turns.
///
/// Production assembles exactly one with `Cogs.assemble(mechanisms:)` and injects it where views
/// read; tests make an isolated one with `Cogs.forTesting(seeding:mechanisms:)` from `CogTesting`.
/// There is no global runtime.
public final class Cogs: CogOps {
    @usableFromInline let graph: Graph
    public let operations: CogOperations

    /// Whether this process has assembled its production runtime.
    private static var hasAssembled = false
    /// The runtime `assemble` made, while it lives: tests ask whether a runtime is that one.
    private static weak var assembled: Cogs?

    /// The grace an unused while-observed state gets in production.
    public static let productionGrace: Duration = .seconds(30)

    /// A bare runtime with no mechanisms: for `CogTesting` and the package's own tools.
    ///
    /// - Parameters:
    ///   - clock: The clock grace periods run on.
    ///   - grace: How long an unused while-observed state waits before it is released.
    package init(clock: any Clock<Duration> = ContinuousClock(), grace: Duration = Cogs.productionGrace) {
        graph = Graph(clock: CogClock(clock), grace: grace)
        operations = CogOperations(graph: graph, owner: nil)
        #if DEBUG
            graph.attachedProbe = historyProbe
        #endif
    }

    #if DEBUG
        /// The bounded history `debugHistory` reads, attached from the start in debug builds.
        let historyProbe = DebugHistoryProbe()
    #endif

    isolated deinit {
        graph.tearDown()
    }

    /// Assembles the app's one runtime and runs its mechanisms in array order; their writes finish
    /// before this returns. A second call in the same process traps, in every build.
    ///
    /// - Parameter mechanisms: The app-wide side effects, in the order they start.
    /// - Returns: The runtime the app retains and injects above every scene.
    public static func assemble(mechanisms: [any Mechanism] = []) -> Cogs {
        let cogs = Cogs()
        if hasAssembled {
            cogs.graph.fail(
                .secondAssembly,
                "Cog is already assembled: assemble(mechanisms:) was called a second time, and an app has one "
                    + "runtime; a test or preview makes its own with Cogs.forTesting(seeding:mechanisms:)")
            return cogs
        }
        hasAssembled = true
        assembled = cogs
        cogs.start(mechanisms)
        return cogs
    }

    /// Clears the production slot, so a scoped test fixture can assemble for real and undo it.
    package static func resetAssembly() {
        hasAssembled = false
        assembled = nil
    }

    /// Whether the production slot is taken now.
    package static var isAssemblySlotTaken: Bool { hasAssembled }

    /// Whether `cogs` is the runtime in the production slot.
    package static func isTheAssembledRuntime(_ cogs: Cogs) -> Bool { hasAssembled && assembled === cogs }

    /// Runs `mechanisms` in order; two with one name fail.
    package func start(_ mechanisms: [any Mechanism]) {
        graph.isAssembling = true
        defer { graph.isAssembling = false }
        var names: Set<String> = []
        for mechanism in mechanisms {
            let name = mechanism.name
            guard names.insert(name).inserted else {
                graph.fail(
                    .duplicateMechanism,
                    "Two mechanisms in one assembly list are both named \(String(reflecting: name)); give one an "
                        + "explicit `name`"
                )
                continue
            }
            let owner = RegistrationOwner(id: graph.claimNodeID(), name: name)
            graph.mechanismOwners.append(owner)
            graph.mechanisms.append(mechanism)
            graph.probe?.record(.registered(CogRegistrationInfo(id: owner.id, name: name, kind: .mechanism)))
            mechanism.operate(MechanismController(owner: owner, graph: graph))
        }
    }

    /// Reads `ref` at the UI edge: settled, and registered with Observation so a
    /// `withObservationTracking` scope (or a SwiftUI body) sees exactly the states it read.
    /// The state stays pinned for the runtime's life.
    @inlinable
    public subscript<Reference: CogReference>(ref: Reference) -> Reference.Value {
        graph.readAtBoundary(ref.address)
    }

    /// The recorder (or other probe) watching this runtime; nil costs one branch per probe site.
    public var probe: (any CogProbe)? {
        get { graph.attachedProbe }
        set {
            graph.attachedProbe = newValue
            if let newValue { graph.announceExistingStates(to: newValue) }
        }
    }

    /// Attaches `probe` beside the one already attached, if any, so a test's own recorder and a
    /// failure recorder can both listen. The new probe hears of the states already there; the
    /// old one hears nothing twice.
    public func addProbe(_ probe: any CogProbe) {
        if let current = graph.attachedProbe {
            graph.attachedProbe = CogProbeFanOut([current, probe])
        } else {
            graph.attachedProbe = probe
        }
        graph.announceExistingStates(to: probe)
    }

    /// Test seam: receives diagnostics instead of trapping. `CogTesting` sets it.
    /// Test seam: answers every async generation started from now on in place of its work.
    package var workStandIn: (any CogWorkStandIn)? {
        get { graph.workStandIn }
        set { graph.workStandIn = newValue }
    }

    package var diagnosticHandler: ((CogDiagnostic) -> Void)? {
        get { graph.diagnosticHandler }
        set { graph.diagnosticHandler = newValue }
    }

    /// How many states the runtime holds (a test seam for leak checks).
    package var stateCount: Int { graph.nodeCount }

    /// How many states have a UI read's Observation boundary (a test seam).
    package var countOfStatesWithBoundary: Int {
        var count = 0
        graph.forEachNode { if $0.hasBoundary { count += 1 } }
        return count
    }

    /// Whether the state `ref` names exists and has a UI read's Observation boundary (a test seam).
    package func hasBoundary<Reference: CogReference>(_ ref: Reference) -> Bool {
        graph.existingNode(ref.address.descriptor, key: ref.address.key)?.hasBoundary ?? false
    }

    /// How many reactions, watches, scopes and exports are registered (a test seam).
    package var registrationCount: Int { graph.reactions.count }

    /// How many tasks mechanisms and scopes have running (a test seam).
    package var taskCount: Int { graph.mechanismOwners.reduce(0) { $0 + $1.taskCountIncludingChildren } }

    /// Releases every unused state whose grace has run out on the runtime's clock, now, instead
    /// of when the runtime's own timer wakes (for tests driving a `TestClock`).
    package func expireDueStates() {
        graph.expireDueStates()
    }
}
