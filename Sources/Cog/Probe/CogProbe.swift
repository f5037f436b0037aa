/// The sink a recorder implements to see everything a runtime does.
///
/// A runtime holds one probe slot (`Cogs.probe`); `Cogs.addProbe` puts several side by side.
/// With none attached, every probe site in the runtime is a single branch and builds no event.
/// Events arrive synchronously on the MainActor, in the order things happen; values are passed
/// as the runtime holds them, and rendering them is the probe's business.
///
/// The busiest events also have their own entry points. `recordStateCreated`, `recordRecompute`,
/// `recordFirstRun` and `recordWrite` lend values where the runtime stores them, not boxed in
/// `Any`; `recordDependenciesChanged` lends a producer list without building an array; `signal`
/// takes the value-free events as plain data. Their default implementations build the matching
/// `CogProbeEvent` and call `record(_:)`, so a probe that only implements `record` sees every
/// event all the same.
public protocol CogProbe: AnyObject {
    /// Receives one event, owned: a probe that keeps it moves it into storage without a copy.
    func record(_ event: consuming CogProbeEvent)

    /// One of the busiest value-free events, as plain data; see `CogProbeSignal`.
    func signal(_ signal: CogProbeSignal)

    /// A state was created: `.stateCreated`, with its starting (or seeded) value lent in place;
    /// nil for an automatic state whose first run follows. The pointer is valid only during the
    /// call.
    func recordStateCreated<Value>(_ info: CogStateInfo, value: UnsafePointer<Value>?)

    /// An automatic state ran its selector again: `.recompute`, with the values lent in place
    /// rather than boxed. The pointers are valid only during the call.
    /// - Parameters:
    ///   - old: the value before the run.
    ///   - new: the value after the run.
    ///   - changed: false when equality gated the result.
    ///   - trigger: the dependency whose change caused the run.
    func recordRecompute<Value>(
        state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>,
        changed: Bool, trigger: CogStateID?)

    /// An automatic state ran its selector for the first time: `.recompute` with no old value.
    /// The pointer is valid only during the call.
    func recordFirstRun<Value>(state: CogStateID, value: UnsafePointer<Value>, trigger: CogStateID?)

    /// A source changed at the end of a turn: `.write`, with the values lent in place. The
    /// pointers are valid only during the call.
    func recordWrite<Value>(state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>)

    /// `consumer`'s dependency list changed: `.dependenciesChanged`, with the new list borrowed
    /// from the runtime rather than copied into an array.
    func recordDependenciesChanged(consumer: CogStateID, producers: borrowing CogProducerList)
}

/// A state's identity inside one runtime: dense, assigned in creation order, so two runs of the
/// same scenario give the same identities.
nonisolated public struct CogStateID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The dense number.
    public let rawValue: Int

    /// Wraps a dense number.
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    public var description: String { "#\(rawValue)" }
}

/// What a probe learns about a registration (a reaction, a watch, a scope, a task).
nonisolated public struct CogRegistrationInfo: Hashable, Sendable, Codable {
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
nonisolated public enum CogTurnOrigin: String, Sendable, Codable {
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
    /// An external `@Observable` property a selector tracks (`c.track`) changed.
    case externalChange
}

/// What a probe learns when a turn begins.
nonisolated public struct CogTurnInfo: Hashable, Sendable, Codable {
    /// The turn's number in this runtime, from 1.
    public let id: Int
    /// The op's name (`#function` by default).
    public let name: String
    /// Why it ran.
    public let origin: CogTurnOrigin
    /// The turn during whose flush this one was requested, if any.
    public let cause: Int?
}
