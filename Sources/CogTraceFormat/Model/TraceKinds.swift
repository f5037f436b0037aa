/// A kind the trace names with a word: a state's shape, an async status, a registration, a turn's
/// origin. The kinds this reader knows are static members; an unknown word from a newer writer is
/// kept as written and shown, never rejected, so an old inspector still opens a new trace.
public protocol TraceKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible where RawValue == String {
    /// The kinds this version of the format knows.
    static var known: [Self] { get }
    /// Whether this version of the format knows the kind (by default: it is one of `known`).
    var isKnown: Bool { get }
}

extension TraceKind {
    /// Whether the kind is one of `known`.
    public var isKnown: Bool { Self.known.contains(self) }

    /// The word as the trace writes it.
    public var description: String { rawValue }
}

/// How a state's value is produced.
public struct StateShape: TraceKind {
    /// The word in the trace, e.g. `async`.
    public let rawValue: String
    /// A shape named `rawValue`; any word is kept.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A writable source (`.Manual`).
    public static let manual = StateShape(rawValue: "manual")
    /// A cached value computed from other states.
    public static let automatic = StateShape(rawValue: "automatic")
    /// A value that arrives from outside through async work.
    public static let async = StateShape(rawValue: "async")
    /// A reaction or watch: dependencies, no value.
    public static let reaction = StateShape(rawValue: "reaction")
    public static let known = [manual, automatic, async, reaction]
}

/// How long a state lives, as the runtime describes it: `app`, or `whileObserved(…)` with its
/// grace and whether it resets.
public struct StateLifetime: TraceKind {
    /// The description in the trace, e.g. `whileObserved(30.0 seconds)`.
    public let rawValue: String
    /// A lifetime described as `rawValue`; any text is kept.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Lives as long as the runtime.
    public static let app = StateLifetime(rawValue: "app")
    public static let known = [app]

    /// Whether the state is released a grace period after nothing observes it.
    public var isWhileObserved: Bool { rawValue.hasPrefix("whileObserved") }
    /// Known as `app` or as some `whileObserved(…)`.
    public var isKnown: Bool { self == .app || isWhileObserved }
}

/// Which policy an async state runs its generations under.
public struct AsyncPolicyName: TraceKind {
    /// The word in the trace, e.g. `latest`.
    public let rawValue: String
    /// A policy named `rawValue`; any word is kept.
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let latest = AsyncPolicyName(rawValue: "latest")
    public static let queue = AsyncPolicyName(rawValue: "queue")
    public static let exhaustLatest = AsyncPolicyName(rawValue: "exhaustLatest")
    public static let merged = AsyncPolicyName(rawValue: "merged")
    public static let known = [latest, queue, exhaustLatest, merged]
}

/// Where an async state's last result stands.
public struct AsyncStatusKind: TraceKind {
    /// The word in the trace, e.g. `success`.
    public let rawValue: String
    /// A status named `rawValue`; any word is kept.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Work is in flight and no newer result has arrived.
    public static let pending = AsyncStatusKind(rawValue: "pending")
    /// The last result was a value.
    public static let success = AsyncStatusKind(rawValue: "success")
    /// The last result was an error.
    public static let failure = AsyncStatusKind(rawValue: "failure")
    public static let known = [pending, success, failure]
}

/// What a registration is.
public struct RegistrationKind: TraceKind {
    /// The word in the trace, e.g. `watch`.
    public let rawValue: String
    /// A registration kind named `rawValue`; any word is kept.
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let reaction = RegistrationKind(rawValue: "reaction")
    public static let watch = RegistrationKind(rawValue: "watch")
    public static let scope = RegistrationKind(rawValue: "scope")
    /// One opening of a scope (a scope runs once per opening).
    public static let scopeOpening = RegistrationKind(rawValue: "scopeOpening")
    public static let task = RegistrationKind(rawValue: "task")
    public static let mechanism = RegistrationKind(rawValue: "mechanism")
    public static let export = RegistrationKind(rawValue: "export")
    public static let known = [reaction, watch, scope, scopeOpening, task, mechanism, export]
}

/// Why a turn ran.
public struct TurnOrigin: TraceKind {
    /// The word in the trace, e.g. `op`.
    public let rawValue: String
    /// An origin named `rawValue`; any word is kept.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A named op called `turn`.
    public static let op = TurnOrigin(rawValue: "op")
    /// Requested during a flush by a reaction, watch or observer.
    public static let reactionWriteBack = TurnOrigin(rawValue: "reactionWriteBack")
    /// An async generation published.
    public static let asyncCompletion = TurnOrigin(rawValue: "asyncCompletion")
    /// `discard` released a state.
    public static let discard = TurnOrigin(rawValue: "discard")
    /// A while-observed state's grace ran out.
    public static let graceExpiry = TurnOrigin(rawValue: "graceExpiry")
    /// A mechanism wrote during assembly.
    public static let assembly = TurnOrigin(rawValue: "assembly")
    /// An external `@Observable` property a selector tracks changed (`c.track`).
    public static let externalChange = TurnOrigin(rawValue: "externalChange")
    public static let known = [op, reactionWriteBack, asyncCompletion, discard, graceExpiry, assembly, externalChange]
}
