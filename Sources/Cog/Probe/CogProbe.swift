/// The sink a recorder implements to see everything a runtime does.
///
/// A runtime holds one probe slot (`Cogs.probe`); `Cogs.addProbe` puts several side by side.
/// With none attached, every probe site in the runtime is a single branch and builds no event.
/// Events arrive synchronously on the MainActor, in the order things happen; values are passed
/// as the runtime holds them, and rendering them is the probe's business.
public protocol CogProbe: AnyObject {
    /// Receives one event, owned: a probe that keeps it moves it into storage without a copy.
    func record(_ event: consuming CogProbeEvent)
}

/// A state's identity inside one runtime: dense, assigned in creation order, so two runs of the
/// same scenario give the same identities.
public struct CogStateID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The dense number.
    public let rawValue: Int

    /// Wraps a dense number.
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    public var description: String { "#\(rawValue)" }
}

/// What a probe learns about a state when it is created.
public struct CogStateInfo: Hashable, Sendable, Codable {
    /// The state's identity in this runtime.
    public let id: CogStateID
    /// The label a person reads: the declaration's label, and `[key]` for a keyed state.
    public let label: String
    /// The declaration's label (its `name:`, or `fileID:line`).
    public let declaration: String
    /// The key rendered as text, for a keyed state.
    public let key: String?
    /// How the value is produced.
    public let shape: CogShape
    /// The Swift type of the value.
    public let valueType: String
    /// `app`, or `whileObserved` with its grace when the state may be released.
    public let lifetime: String
    /// The async policy, for an async state.
    public let policy: AsyncPolicyKind?
}

/// What a probe learns about a registration (a reaction, a watch, a scope, a task).
public struct CogRegistrationInfo: Hashable, Sendable, Codable {
    /// The kinds of registration.
    public enum Kind: String, Sendable, Codable {
        case reaction, watch, scope, task, mechanism, export
    }

    /// The registration's identity, from the same dense space as states.
    public let id: CogStateID
    /// Its name, e.g. `Weather.niceAlert`.
    public let name: String
    /// What it is.
    public let kind: Kind

    /// Describes a registration.
    public init(id: Int, name: String, kind: Kind) {
        self.id = CogStateID(id)
        self.name = name
        self.kind = kind
    }
}

/// Why a turn ran.
public enum CogTurnOrigin: String, Sendable, Codable {
    /// A named op called `turn`.
    case op
    /// A turn requested during a flush (by a reaction, watch or observer), run after it.
    case reactionWriteBack
    /// An async generation published pending, success or failure.
    case asyncCompletion
    /// `discard` released a state.
    case discard
    /// A while-observed state's grace period ran out.
    case graceExpiry
    /// A mechanism's `operate` wrote during assembly.
    case assembly
}

/// What a probe learns when a turn begins.
public struct CogTurnInfo: Hashable, Sendable, Codable {
    /// The turn's number in this runtime, from 1.
    public let id: Int
    /// The op's name (`#function` by default).
    public let name: String
    /// Why it ran.
    public let origin: CogTurnOrigin
    /// The turn during whose flush this one was requested, if any.
    public let cause: Int?
}
