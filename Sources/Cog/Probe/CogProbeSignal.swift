/// The busiest events that carry no values, as plain data: no strings, no boxes, nothing to
/// retain. Passing one costs a few words, and a recorder keeps it without copying anything
/// behind it. `CogProbe.signal(_:)` receives them; by default as the matching `CogProbeEvent`.
nonisolated public enum CogProbeSignal: Sendable {
    /// The turn's flush finished.
    case turnEnded(turn: Int)
    /// A boundary state's observers were told it changed.
    case notice(state: CogStateID)
    /// A reaction ran.
    case reactionRun(registration: CogStateID)
    /// Transient demand renewed an unused state's grace window; `holder` names the demand
    /// (`peek`, `refresh`, `write`).
    case leaseRenewed(state: CogStateID, holder: StaticString)
    /// An unused while-observed state will be released after `grace` unless something uses it.
    case graceScheduled(state: CogStateID, grace: Duration)

    /// The same event as a `CogProbeEvent`.
    public var event: CogProbeEvent {
        switch self {
        case .turnEnded(let turn): .turnEnded(turn: turn)
        case .notice(let state): .notice(state: state)
        case .reactionRun(let registration): .reactionRun(registration: registration)
        case .leaseRenewed(let state, let holder): .leaseRenewed(state: state, holder: holder.description)
        case .graceScheduled(let state, let grace): .graceScheduled(state: state, grace: grace)
        }
    }
}
