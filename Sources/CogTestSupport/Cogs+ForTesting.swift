public import Cog

extension Cogs {
    /// A fresh, isolated runtime for one test or preview: seeds first, then starts `mechanisms`.
    /// It never claims the production slot, so any number can exist in one process. Inside a
    /// test that records (the `.cogTrace` trait, `CogTraceTestCase`, or any test while
    /// `COG_TRACE=failures` or `always` is set), it also gets a recorder.
    ///
    /// - Parameters:
    ///   - clock: The clock grace periods run on. By default a `TestClock` of the runtime's own,
    ///     which never moves by itself: an unused state is not released behind a slow test's back
    ///     (under a sanitizer, or on a loaded machine, 30 real seconds can pass mid-test). Pass a
    ///     `TestClock` you keep to drive grace periods, or `ContinuousClock()` for real time.
    ///   - whileObservedGrace: How long an unused while-observed state waits before release
    ///     (production: 30 s).
    ///   - externalObservationTracking: How `c.track` follows external `@Observable` state;
    ///     Linux has one path, so both choices select it (see `ExternalObservationTrackingForTesting`).
    ///   - seeding: Places source values with `cogs.seed(_:to:)`, with no turn, notice or
    ///     reaction, before any mechanism starts.
    ///   - mechanisms: The mechanisms under test, started in array order.
    /// - Returns: The runtime; keep one per test.
    public static func forTesting(
        clock: any Clock<Duration> = TestClock(), whileObservedGrace: Duration = Cogs.productionGrace,
        externalObservationTracking: ExternalObservationTrackingForTesting = .automatic,
        seeding: ((Cogs) -> Void)? = nil, mechanisms: [any Mechanism] = []
    ) -> Cogs {
        let cogs = Cogs(clock: clock, grace: whileObservedGrace)
        seeding?(cogs)
        (CogTraceCapture.current ?? AmbientCaptureSource.captureForCurrentTest())?.record(cogs, clock: clock)
        cogs.start(mechanisms)
        return cogs
    }

    /// The same runtime, plus a controller of its own for the test: registrations made through it
    /// (`run`, `watch`, `scope`, `task`) live as long as the runtime, as an app mechanism's do.
    /// The controller belongs to a mechanism named `CogTesting.Probe`, started after `mechanisms`,
    /// so it sees what theirs did at assembly.
    ///
    /// ```swift
    /// let (cogs, controller) = Cogs.forTestingWithController()
    /// controller.watch(countCog, name: "count") { _, count in seen.append(count) }
    /// ```
    public static func forTestingWithController(
        clock: any Clock<Duration> = TestClock(), whileObservedGrace: Duration = Cogs.productionGrace,
        externalObservationTracking: ExternalObservationTrackingForTesting = .automatic,
        seeding: ((Cogs) -> Void)? = nil, mechanisms: [any Mechanism] = []
    ) -> (cogs: Cogs, controller: MechanismController) {
        let probe = ControllerProbe()
        let cogs = forTesting(
            clock: clock, whileObservedGrace: whileObservedGrace, seeding: seeding, mechanisms: mechanisms + [probe])
        guard let controller = probe.controller else {
            preconditionFailure("CogTesting.Probe was not started, so there is no controller to return")
        }
        return (cogs, controller)
    }

    /// The same runtime, spelled with a `CogSeeder` and `grace:` in this order.
    @_disfavoredOverload
    public static func forTesting(
        seeding: (CogSeeder) -> Void, mechanisms: [any Mechanism] = [],
        clock: any Clock<Duration> = TestClock(), grace: Duration = Cogs.productionGrace
    ) -> Cogs {
        withoutActuallyEscaping(seeding) { seeding in
            forTesting(
                clock: clock, whileObservedGrace: grace, seeding: { seeding(CogSeeder(cogs: $0)) },
                mechanisms: mechanisms)
        }
    }

    /// The same runtime, spelled with the mechanisms before the clock.
    public static func forTesting(
        mechanisms: [any Mechanism], clock: any Clock<Duration>, grace: Duration = Cogs.productionGrace
    ) -> Cogs {
        forTesting(clock: clock, whileObservedGrace: grace, mechanisms: mechanisms)
    }

    /// The same runtime, spelled with `grace:`.
    public static func forTesting(clock: any Clock<Duration>, grace: Duration) -> Cogs {
        forTesting(clock: clock, whileObservedGrace: grace)
    }

    /// Releases, now, every unused state whose grace has run out on the runtime's clock: call it
    /// after `TestClock.advance(by:)` so expiry happens at a known point rather than when the
    /// runtime's own timer task next runs.
    public func expireGrace() {
        expireDueStates()
    }

    /// How many states the runtime holds now: a test seam for leak checks.
    public var liveStateCount: Int { stateCount }

    /// How many reactions, watches and scopes are registered now: a test seam for leak checks.
    public var liveRegistrationCount: Int { registrationCount }

    /// How many mechanism and scope tasks are running now: a test seam for leak checks.
    public var liveTaskCount: Int { taskCount }

    /// Runs `body` against a runtime whose diagnostics are collected instead of trapping, and
    /// returns them: the seam that lets a test inspect a cycle or a misuse without crashing.
    ///
    /// After a diagnostic the runtime recovers the way production cannot: a refused write is
    /// dropped and a cyclic read returns the state's previous value.
    public func collectingDiagnostics(_ body: () -> Void) -> [CogDiagnostic] {
        var collected: [CogDiagnostic] = []
        let previous = diagnosticHandler
        diagnosticHandler = { collected.append($0) }
        defer { diagnosticHandler = previous }
        body()
        return collected
    }
}

/// Runs `body` with the process's production runtime really assembled, then releases the slot,
/// so a test can check the app's real assembly. Synchronous: no other test can see the install.
///
/// - Parameters:
///   - mechanisms: The app's mechanisms, as the entry point passes them.
///   - body: Checks the assembled runtime.
public func withAssembledCogs<Result>(
    mechanisms: [any Mechanism] = [], _ body: (Cogs) throws -> Result
) rethrows -> Result {
    try Cogs.withAssembledCogs(mechanisms: mechanisms, body)
}

extension Cogs {
    /// Runs `body` with the process's production runtime really assembled, then releases the
    /// slot even when `body` throws. Do not nest: the inner call is a second assembly.
    @discardableResult
    public static func withAssembledCogs<Result>(
        mechanisms: [any Mechanism] = [], _ body: (Cogs) throws -> Result
    ) rethrows -> Result {
        let cogs = Cogs.assemble(mechanisms: mechanisms)
        defer { Cogs.resetAssembly() }
        return try body(cogs)
    }

    /// Whether `cogs` is the runtime `assemble(mechanisms:)` installed: proves a test got the
    /// app's real runtime without a global accessor in the app's own code.
    public static func isAssembledCogs(_ cogs: Cogs) -> Bool { isTheAssembledRuntime(cogs) }

    /// Whether the process's production runtime is assembled right now.
    public static var hasAssembledCogs: Bool { isAssemblySlotTaken }
}

extension Cogs {
    /// How many states a UI read has pinned behind an Observation boundary now: a count, so a
    /// test can check that only what a view read got a boundary.
    public var observationBoundaryCount: Int { countOfStatesWithBoundary }

    /// Whether the state `ref` names has an Observation boundary now. Only a lookup: asking
    /// about a state that was never read does not create it.
    public func hasObservationBoundary<Reference: CogReference>(for ref: Reference) -> Bool {
        hasBoundary(ref)
    }
}

/// The mechanism `forTestingWithController` starts to hand its controller to the test.
private final class ControllerProbe: Mechanism {
    let name = "CogTesting.Probe"
    private(set) var controller: MechanismController?

    nonisolated deinit {}

    func operate(_ m: MechanismController) { controller = m }
}
