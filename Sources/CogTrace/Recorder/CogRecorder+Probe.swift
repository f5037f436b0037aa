public import Cog

/// The probe entry points: each keeps its event in the log, packed, unless the turn is full.
extension CogRecorder {
    public func record(_ event: consuming CogProbeEvent) {
        let event = event
        switch event {
        case .turnBegan(let turn):
            beginTurn(turn)
            return
        case .turnEnded:
            endTurn()
            return
        case .stateCreated(let info, _):
            noteState(info)
        case .generationStarted(let state, let generation, _):
            pendingWork?.started(
                state: state.rawValue, label: label(of: state), generation: generation, since: turnNow)
        case .generationCancelled(let state, let generation), .generationAccepted(let state, let generation, _),
            .generationRejected(let state, let generation):
            pendingWork?.ended(state: state.rawValue, generation: generation)
        default:
            break
        }
        if accepts() { log.append(event) }
    }

    public func recordStateCreated<Value>(_ info: CogStateInfo, value: UnsafePointer<Value>?) {
        noteState(info)
        if accepts() { log.appendStateCreated(info, value: value) }
    }

    public func signal(_ signal: CogProbeSignal) {
        if case .turnEnded = signal {
            endTurn()
            return
        }
        if accepts() { log.append(signal) }
    }

    public func recordRecompute<Value>(
        state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>,
        changed: Bool, trigger: CogStateID?
    ) {
        if accepts() { log.appendRecompute(state: state, old: old, new: new, changed: changed, trigger: trigger) }
    }

    public func recordFirstRun<Value>(state: CogStateID, value: UnsafePointer<Value>, trigger: CogStateID?) {
        if accepts() { log.appendFirstRun(state: state, value: value, trigger: trigger) }
    }

    public func recordWrite<Value>(state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>) {
        if accepts() { log.appendWrite(state: state, old: old, new: new) }
    }

    public func recordDependenciesChanged(consumer: CogStateID, producers: borrowing CogProducerList) {
        if accepts() { log.appendDependencies(consumer: consumer, producers: producers) }
    }
}

extension CogRecorder {
    /// The label of a state the recorder has heard of, or its id.
    func label(of state: CogStateID) -> String {
        let id = state.rawValue
        guard id >= 0, id < statePositionByID.count, statePositionByID[id] >= 0 else { return state.description }
        return stateInfos[statePositionByID[id]].label
    }
}
