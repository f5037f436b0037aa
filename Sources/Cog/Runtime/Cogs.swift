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

    /// A bare runtime with no mechanisms: for `CogTesting` and the package's own tools.
    package init() {
        graph = Graph()
        operations = CogOperations(graph: graph)
    }

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
            cogs.graph.fail(.secondAssembly, "assemble(mechanisms:) called a second time; an app has one runtime")
            return cogs
        }
        hasAssembled = true
        cogs.start(mechanisms)
        return cogs
    }

    /// Clears the production slot, so a scoped test fixture can assemble for real and undo it.
    package static func resetAssembly() {
        hasAssembled = false
    }

    /// Runs `mechanisms` in order; two with one name fail.
    package func start(_ mechanisms: [any Mechanism]) {
        graph.isAssembling = true
        defer { graph.isAssembling = false }
        var names: Set<String> = []
        for mechanism in mechanisms {
            let name = mechanism.name
            guard names.insert(name).inserted else {
                graph.fail(.duplicateMechanism, "two mechanisms are named '\(name)'; give one a distinct name")
                continue
            }
            graph.probe?.record(.registered(CogRegistrationInfo(id: graph.claimNodeID(), name: name, kind: .mechanism)))
            mechanism.operate(MechanismController(name: name, graph: graph))
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
        get { graph.probe }
        set { graph.probe = newValue }
    }

    /// Test seam: receives diagnostics instead of trapping. `CogTesting` sets it.
    package var diagnosticHandler: ((CogDiagnostic) -> Void)? {
        get { graph.diagnosticHandler }
        set { graph.diagnosticHandler = newValue }
    }

    /// How many states and registrations the runtime holds (a test seam for leak checks).
    package var stateCount: Int { graph.nodeCount }
}
