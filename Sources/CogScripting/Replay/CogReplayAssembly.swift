public import Cog
public import CogTrace

/// How a replay test assembles the app a recording came from: the declarations the recording may
/// name, and what the app starts with its runtime. `coginspect`'s `export test` writes a test that
/// names one of these; the app's test target declares it once.
///
/// ```swift
/// enum TipJarAssembly: CogReplayAssembly {
///     static var declarations: [CogReplayDeclaration] {
///         [.source(billCentsCog), .source(tipPercentCog), .state(tipCentsCog), .state(totalCentsCog)]
///     }
/// }
/// ```
///
/// An app whose async work or outside consumers replay must answer returns a `ReplayTarget` of
/// its own from `makeTarget()` instead.
public protocol CogReplayAssembly {
    /// The declarations the recording may write or read, by the labels a trace gives them.
    static var declarations: [CogReplayDeclaration] { get }
    /// The mechanisms the app starts with its runtime, in order; none by default.
    static func mechanisms(clock: TestClock) -> [any Mechanism]
    /// How long an unused while-observed state waits before release; production's by default.
    static var grace: Duration { get }
    /// The app under replay, assembled and started, with a recorder attached before its
    /// mechanisms started and `seeds` (the sources the recording shows seeded) in place. By
    /// default a `CogReplayApp` built from the members above.
    static func makeTarget(title: String, seeds: [ReplaySeed]) throws -> any ReplayTarget
}

extension CogReplayAssembly {
    /// By default the app starts no mechanism.
    public static func mechanisms(clock: TestClock) -> [any Mechanism] { [] }
    /// By default production's grace.
    public static var grace: Duration { Cogs.productionGrace }
    /// By default the declarations on a fresh runtime.
    public static func makeTarget(title: String, seeds: [ReplaySeed]) throws -> any ReplayTarget {
        try CogReplayApp(
            title: title, declarations: declarations, grace: grace, seeds: seeds, mechanisms: mechanisms(clock:))
    }
}

/// The app a `CogReplayAssembly` describes: a fresh runtime on a `TestClock`, recorded, that
/// writes sources and reads states by label through the assembly's declarations.
public final class CogReplayApp: ReplayTarget {
    public let cogs: Cogs
    public let clock = TestClock()
    public let recorder: CogRecorder
    public let sources: [CogSourceWriter]
    /// The declarations by label.
    private let declarations: [String: CogReplayDeclaration]
    /// Answers async generations with the recorded outcomes, in place of the app's work.
    private let standIn = ReplayWorkStandIn()

    /// Assembles the app: the runtime, its recorder, `seeds` placed, then `mechanisms` started.
    /// - Throws: `ReplayError` for a seed no declaration writes, or whose value does not decode.
    public init(
        title: String, declarations: [CogReplayDeclaration], grace: Duration = Cogs.productionGrace,
        seeds: [ReplaySeed] = [], mechanisms: (TestClock) -> [any Mechanism] = { _ in [] }
    ) throws(ReplayError) {
        recorder = CogRecorder(configuration: RecorderConfiguration(title: title, clock: .virtual(clock)))
        cogs = Cogs(clock: clock, grace: grace)
        recorder.attach(to: cogs)
        cogs.workStandIn = standIn
        sources = declarations.compactMap(\.writer)
        self.declarations = Dictionary(declarations.map { ($0.declaration, $0) }) { first, _ in first }
        for seed in seeds {
            guard let writer = self.declarations[seed.state.declaration]?.writer else {
                throw ReplayError(
                    "the recording seeds '\(seed.state.label)', which no declaration of the assembly writes")
            }
            do {
                try writer.seed(in: cogs, key: seed.state.key, decoder: RecordedValueDecoder(value: seed.value?.json))
            } catch {
                throw ReplayError("cannot seed '\(seed.state.label)': \(error)")
            }
        }
        cogs.start(mechanisms(clock))
    }

    /// The labels of the declarations this app knows.
    public var declarationLabels: Set<String> { Set(declarations.keys) }

    public func read(_ state: ReplayState) -> Bool {
        guard let declaration = declarations[state.declaration] else { return false }
        do {
            try declaration.read(cogs, state.key)
            return true
        } catch {
            return false
        }
    }

    public func refresh(_ state: ReplayState) -> Bool {
        guard let refresh = declarations[state.declaration]?.refresh else { return false }
        do {
            try refresh(cogs, state.key)
            return true
        } catch {
            return false
        }
    }

    /// Answers the newest generation of `state` waiting now with the recorded outcome, and waits
    /// (at most five seconds) for the turn that publishes it.
    public func complete(_ state: ReplayState, with outcome: ReplayOutcome) async throws -> Bool {
        try await complete(state, with: outcome, generation: nil)
    }

    /// Answers generation `generation` of `state` (the newest waiting when it is nil or not
    /// waiting) with the recorded outcome, and waits (at most five seconds) for the turn that
    /// publishes it.
    public func complete(_ state: ReplayState, with outcome: ReplayOutcome, generation: Int?) async throws -> Bool {
        let before = recorder.recordedTurnCount
        guard standIn.answer(state.label, generation: generation, with: outcome) else { return false }
        let deadline = ContinuousClock.now + .seconds(5)
        while recorder.recordedTurnCount == before, ContinuousClock.now < deadline { await Task.yield() }
        return true
    }
}
