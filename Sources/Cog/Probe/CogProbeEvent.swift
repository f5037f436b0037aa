/// One thing a runtime did, as a probe sees it.
///
/// Values are `Any`, exactly as the runtime holds them; states are named by `CogStateID`, whose
/// label and shape arrived earlier with `stateCreated`.
nonisolated public enum CogProbeEvent {
    /// A turn began; every event up to the matching `turnEnded` belongs to it.
    case turnBegan(CogTurnInfo)
    /// The turn's flush finished.
    case turnEnded(turn: Int)
    /// A state was created, with its starting (or seeded) value; nil for an automatic state
    /// whose first run follows.
    case stateCreated(CogStateInfo, value: Any?)
    /// A registration was made.
    case registered(CogRegistrationInfo)
    /// A source value was placed by seeding, with no turn.
    case seeded(state: CogStateID, value: Any)
    /// A source changed at the end of a turn.
    case write(state: CogStateID, old: Any, new: Any)
    /// A source was written with a value equal to its current one; nothing changed.
    case writeDiscarded(state: CogStateID, value: Any)
    /// An automatic state ran its selector; `changed` is false when equality gated the result.
    /// `trigger` is the dependency whose change caused the run (nil for a first run).
    case recompute(state: CogStateID, old: Any?, new: Any?, changed: Bool, trigger: CogStateID?)
    /// `consumer`'s dependency list changed; `producers` is the new list in read order. Edges
    /// added and removed, and the leases a reaction, watch or export takes and gives up, follow
    /// from comparing it with the previous list (a recorder does that, not the hot path).
    case dependenciesChanged(consumer: CogStateID, producers: [CogStateID])
    /// A reaction, watch, scope or export was removed (its owner retired or its stream ended).
    case unregistered(registration: CogStateID)
    /// A UI read pinned a state behind an Observation boundary.
    case boundaryAttached(state: CogStateID)
    /// A boundary state's observers were told it changed.
    case notice(state: CogStateID)
    /// A reaction ran.
    case reactionRun(registration: CogStateID)
    /// An async state started work for a generation.
    case generationStarted(state: CogStateID, generation: Int, policy: AsyncPolicyKind)
    /// The runtime cancelled a generation (replaced or released); it will publish nothing.
    case generationCancelled(state: CogStateID, generation: Int)
    /// A generation's result (or stream element, or error) was published.
    case generationAccepted(state: CogStateID, generation: Int, outcome: String)
    /// A result arrived for a generation that is no longer current, and was dropped.
    case generationRejected(state: CogStateID, generation: Int)
    /// An async state's status changed (committed in the turn in progress).
    case asyncStatus(state: CogStateID, kind: String, isLoading: Bool, hasSucceeded: Bool, error: String?)
    /// A refresh handle learned its outcome.
    case refreshResolved(state: CogStateID, generation: Int?, outcome: String)
    /// A queued turn was dropped instead of run (its scope retired first).
    case turnDropped(name: String, reason: String)
    /// A scope opened (for an identity scope, `identity` names it).
    case scopeOpened(registration: CogStateID, name: String, identity: String?)
    /// A mechanism's or scope's registrations were retired.
    case scopeRetired(registration: CogStateID)
    /// A task started under a controller.
    case taskStarted(registration: CogStateID, name: String)
    /// A task was cancelled because its owner retired.
    case taskCancelled(registration: CogStateID)
    /// A task's operation returned or threw.
    case taskFinished(registration: CogStateID)
    /// A watch handler ran with the old and new value.
    case watchRun(registration: CogStateID, old: Any?, new: Any)
    /// Transient demand (peek, refresh, a write) renewed an unused state's grace window.
    case leaseRenewed(state: CogStateID, holder: String)
    /// An unused while-observed state will be released after `grace` unless something uses it.
    case graceScheduled(state: CogStateID, grace: Duration)
    /// A state's grace ran out.
    case graceExpired(state: CogStateID)
    /// A state was released; a later read creates it again from its declaration.
    case stateReleased(state: CogStateID, reason: CogReleaseReason)
    /// An export offered a value to its subscriber's buffer.
    case offer(state: CogStateID, subscriber: CogStateID, value: Any)
    /// The runtime detected a failure (it traps unless a test intercepts it).
    case diagnostic(CogDiagnostic)
}

/// Why a state was released.
nonisolated public enum CogReleaseReason: String, Sendable, Codable {
    /// Its grace period ran out with no reader.
    case graceExpired
    /// The state that read it was released and nothing else uses it.
    case cascade
    /// An op discarded it.
    case discarded
}
