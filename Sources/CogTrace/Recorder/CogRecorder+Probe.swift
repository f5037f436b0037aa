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
