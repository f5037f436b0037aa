import Cog

/// Converting kept events to trace events, and the state table the trace writes.
extension CogRecorder {
    /// A recorded turn as the trace holds it, converted in order by `converter`.
    func traced(_ turn: RecordedTurn, with converter: inout TraceConverter) -> TraceTurn {
        var traced = heading(of: turn)
        traced.events = converter.convert(portable(turn.events, settling: false))
        traced.after = converter.convert(portable(turn.after, settling: false))
        return traced
    }

    /// A recorded turn's record without its events, which a converter fills in.
    func heading(of turn: RecordedTurn) -> TraceTurn {
        TraceTurn(
            sequence: TurnNumber(turn.info.id), name: turn.info.name,
            origin: TurnOrigin(rawValue: turn.info.origin.rawValue),
            cause: turn.info.cause.map { TurnNumber($0) },
            start: timeline.microseconds(turn.start), duration: timeline.microseconds(turn.duration),
            events: [], after: [])
    }

    private func value(_ value: Any, of state: CogStateID) -> TraceValue {
        if !redactedStates.isEmpty, redactedStates.contains(state.rawValue) { return .redacted }
        return TraceValue(pending: value)
    }

    func trace(_ event: CogProbeEvent) -> TraceEvent? {
        switch event {
        case .turnBegan, .turnEnded:
            return nil
        case .stateCreated(let info, let initial):
            return .stateCreated(state: info.id.nodeID, value: initial.map { value($0, of: info.id) })
        case .registered(let info):
            return .registered(
                registration: info.id.nodeID, name: info.name, kind: RegistrationKind(rawValue: info.kind.rawValue))
        case .seeded(let state, let new):
            return .seeded(state: state.nodeID, value: value(new, of: state))
        case .write(let state, let old, let new):
            return .write(state: state.nodeID, old: value(old, of: state), new: value(new, of: state))
        case .writeDiscarded(let state, let discarded):
            return .writeDiscarded(state: state.nodeID, value: value(discarded, of: state))
        case .recompute(let state, let old, let new, let changed, let trigger):
            return .recompute(
                state: state.nodeID, old: old.map { value($0, of: state) },
                new: new.map { value($0, of: state) }, changed: changed, trigger: trigger?.nodeID)
        case .dependenciesChanged(let consumer, let producers):
            return .dependencies(consumer: consumer.nodeID, producers: producers.map(\.nodeID))
        case .unregistered(let registration):
            return .unregistered(registration: registration.nodeID)
        case .boundaryAttached(let state):
            return .boundaryAttached(state: state.nodeID)
        case .notice(let state):
            return .notice(state: state.nodeID)
        case .reactionRun(let registration):
            return .reactionRun(registration: registration.nodeID)
        case .generationStarted(let state, let generation, let policy):
            return .generationStarted(
                state: state.nodeID, generation: generation, policy: AsyncPolicyName(rawValue: policy.rawValue))
        case .generationCancelled(let state, let generation):
            return .generationCancelled(state: state.nodeID, generation: generation)
        case .generationAccepted(let state, let generation, let outcome):
            return .generationAccepted(state: state.nodeID, generation: generation, outcome: outcome)
        case .generationRejected(let state, let generation):
            return .generationRejected(state: state.nodeID, generation: generation)
        case .asyncStatus(let state, let kind, let isLoading, let hasSucceeded, let error):
            let shownError = redactedStates.contains(state.rawValue) ? error.map { _ in "‹redacted›" } : error
            return .asyncStatus(
                state: state.nodeID, kind: AsyncStatusKind(rawValue: kind), isLoading: isLoading,
                hasSucceeded: hasSucceeded,
                error: shownError)
        case .refreshResolved(let state, let generation, let outcome):
            return .refreshResolved(state: state.nodeID, generation: generation, outcome: outcome)
        case .turnDropped(let name, let reason):
            return .turnDropped(name: name, reason: reason)
        case .scopeOpened(let registration, let name, let identity):
            return .scopeOpened(registration: registration.nodeID, name: name, identity: identity)
        case .scopeRetired(let registration):
            return .scopeRetired(registration: registration.nodeID)
        case .taskStarted(let registration, let name):
            return .taskStarted(registration: registration.nodeID, name: name)
        case .taskCancelled(let registration):
            return .taskCancelled(registration: registration.nodeID)
        case .taskFinished(let registration):
            return .taskFinished(registration: registration.nodeID)
        case .watchRun(let registration, let old, let new):
            return .watchRun(
                registration: registration.nodeID, old: old.map { TraceValue(pending: $0) },
                new: TraceValue(pending: new))
        case .leaseRenewed(let state, let holder):
            return .leaseRenewed(state: state.nodeID, holder: holder)
        case .graceScheduled(let state, let grace):
            let (seconds, attoseconds) = grace.components
            return .graceScheduled(
                state: state.nodeID,
                milliseconds: Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000))
        case .graceExpired(let state):
            return .graceExpired(state: state.nodeID)
        case .stateReleased(let state, let reason):
            return .stateReleased(state: state.nodeID, reason: reason.rawValue)
        case .offer(let state, let subscriber, let offered):
            return .offer(state: state.nodeID, subscriber: subscriber.nodeID, value: value(offered, of: state))
        case .diagnostic(let diagnostic):
            return .diagnostic(kind: diagnostic.kind.rawValue, message: diagnostic.message, path: diagnostic.path)
        }
    }

    func noteState(_ info: CogStateInfo) {
        let id = info.id.rawValue
        if id >= statePositionByID.count {
            // Doubling from a small table: a test's runtime has a handful of states, and in a
            // debug build (as `swift test` builds a client) filling 256 slots a recorder was a
            // visible part of recording a small test.
            let missing = Swift.max(id + 1 - statePositionByID.count, statePositionByID.count, 16)
            statePositionByID.append(contentsOf: ContiguousArray(repeating: -1, count: missing))
        }
        let position = statePositionByID[id]
        if position < 0 {
            statePositionByID[id] = stateInfos.count
            stateInfos.append(info)
        } else {
            stateInfos[position] = info
        }
        guard !configuration.redactedLabels.isEmpty else { return }
        if configuration.redactedLabels.contains(where: { LabelPattern($0).matches(info.label) }) {
            redactedStates.insert(id)
        } else {
            redactedStates.remove(id)
        }
    }
}

extension TraceStateInfo {
    /// The state table entry for the state `info` describes.
    init(_ info: CogStateInfo) {
        self.init(
            id: info.id.nodeID, label: info.label, declaration: info.declaration, key: info.key,
            shape: StateShape(rawValue: info.shape.rawValue),
            valueType: info.valueType, lifetime: StateLifetime(rawValue: info.lifetime),
            policy: info.policy.map { AsyncPolicyName(rawValue: $0.rawValue) })
    }
}

extension CogStateID {
    /// The id as the trace writes it.
    var nodeID: NodeID { NodeID(rawValue) }
}
