public import Cog
public import CogTrace

/// The app under replay: a fresh runtime with the app's declarations and mechanisms, on a
/// `TestClock`, with a recorder attached before the mechanisms started, and the hooks replay
/// needs to feed it what the recording shows came from outside.
public protocol ReplayTarget: AnyObject {
    /// The runtime, assembled and started.
    var cogs: Cogs { get }
    /// The clock the runtime and recorder run on; replay advances it to each turn's recorded time.
    var clock: TestClock { get }
    /// The recorder attached to `cogs`, recording on `clock`.
    var recorder: CogRecorder { get }
    /// The sources the recording may show written by ops or discarded.
    var sources: [CogSourceWriter] { get }

    /// Starts a refresh of the async state `state` (as a pull-to-refresh would).
    /// - Returns: false when the app has no way to refresh that state.
    func refresh(_ state: ReplayState) -> Bool

    /// Completes the running work of the async state `state` with a recorded outcome.
    /// - Returns: false when no work for that state is running yet (replay waits and tries again).
    /// - Throws: when the recorded value cannot be decoded.
    func complete(_ state: ReplayState, with outcome: ReplayOutcome) async throws -> Bool

    /// Completes generation `generation` of the async state `state` (as the recording numbers
    /// it) with a recorded outcome; a target that cannot tell generations apart completes the
    /// running work as `complete(_:with:)` does, which is the default.
    func complete(_ state: ReplayState, with outcome: ReplayOutcome, generation: Int?) async throws -> Bool

    /// Starts the outside consumer the recording shows subscribing to `state` (an export).
    /// - Returns: false when the app has none for it.
    func openExport(of state: ReplayState) -> Bool

    /// Stops the consumer `openExport(of:)` started, and waits until the runtime has let it go.
    func closeExport(of state: ReplayState) async

    /// Runs after each input replay fed, for whatever the app does after one (a UI's reads).
    func didFeed(_ input: ReplayInput)

    /// Reads `state` as the recording shows something outside the app did between turns (a
    /// test's `peek`, a screen's read), so the replay computes what the recording computed.
    /// - Returns: false when the app has no way to read that state.
    func read(_ state: ReplayState) -> Bool
}

extension ReplayTarget {
    /// By default the app has no outside consumers to open.
    public func openExport(of state: ReplayState) -> Bool { false }
    /// By default there is nothing to close.
    public func closeExport(of state: ReplayState) async {}
    /// By default nothing follows an input.
    public func didFeed(_ input: ReplayInput) {}
    /// By default the app's own reads (a screen that renders after each input) are all there are.
    public func read(_ state: ReplayState) -> Bool { false }
}

/// A state as the recording names it.
public struct ReplayState: Equatable, Sendable {
    /// `weather.forecast[10001]`.
    public let label: String
    /// `weather.forecast`.
    public let declaration: String
    /// `10001`; nil for a keyless state.
    public let key: String?
}

/// A source the recording shows seeded before its first turn, as a test's
/// `Cogs.forTesting(seeding:)` leaves it: replay seeds it the same way before the app starts.
public struct ReplaySeed: Equatable, Sendable {
    /// The seeded state.
    public let state: ReplayState
    /// Its recorded value's structured form; nil when the recording kept only its text.
    public let value: StructuredValue?
}

/// What an async state's recorded work came to.
extension ReplayTarget {
    public func complete(_ state: ReplayState, with outcome: ReplayOutcome, generation: Int?) async throws -> Bool {
        try await complete(state, with: outcome)
    }
}

public enum ReplayOutcome: Equatable, Sendable {
    /// It succeeded with this value (its structured form; nil when the type is not `Encodable`).
    case success(StructuredValue?)
    /// It failed with this message.
    case failure(String)

    /// The successful value, decoded as `type`.
    /// - Throws: `ReplayError` for a failure, or a value that does not decode as `type`.
    public func value<T: Decodable>(as type: T.Type) throws(ReplayError) -> T {
        guard case .success(let json) = self else { throw ReplayError("a failed outcome has no value") }
        return try RecordedValueDecoder(value: json?.json).decoded(as: type)
    }
}

/// One thing replay fed the target, as `didFeed` hears of it.
public enum ReplayInput: Equatable, Sendable {
    case op(name: String)
    case refresh(ReplayState)
    case completion(ReplayState)
    case discard(ReplayState)
    case graceExpiry
    case exportOpened(ReplayState)
    case exportClosed(ReplayState)
}

/// The error a replayed failure carries: the recorded message.
public struct ReplayedFailure: Error, CustomStringConvertible, Equatable {
    /// The error's text as the recording kept it.
    public let message: String

    /// A failure carrying `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// Why a replay could not run: what is missing, quoting the recording.
public struct ReplayError: Error, CustomStringConvertible, Equatable {
    /// What is missing, lowercase, quoting the recording.
    public let message: String

    /// An error saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
