/// The default of each dedicated entry point builds the matching `CogProbeEvent` and records it,
/// so a probe that implements only `record(_:)` sees every event.
extension CogProbe {
    /// Records the signal as its `CogProbeEvent`.
    public func signal(_ signal: CogProbeSignal) {
        record(signal.event)
    }

    /// Builds the `.stateCreated` event and records it.
    public func recordStateCreated<Value>(_ info: CogStateInfo, value: UnsafePointer<Value>?) {
        let initial: Any? = if let value { value.pointee } else { nil }
        record(.stateCreated(info, value: initial))
    }

    /// Builds the `.recompute` event and records it.
    public func recordRecompute<Value>(
        state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>,
        changed: Bool, trigger: CogStateID?
    ) {
        record(.recompute(state: state, old: old.pointee, new: new.pointee, changed: changed, trigger: trigger))
    }

    /// Builds the `.recompute` event of a first run and records it.
    public func recordFirstRun<Value>(state: CogStateID, value: UnsafePointer<Value>, trigger: CogStateID?) {
        record(.recompute(state: state, old: nil, new: value.pointee, changed: true, trigger: trigger))
    }

    /// Builds the `.write` event and records it.
    public func recordWrite<Value>(state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>) {
        record(.write(state: state, old: old.pointee, new: new.pointee))
    }

    /// Builds the `.dependenciesChanged` event and records it.
    public func recordDependenciesChanged(consumer: CogStateID, producers: borrowing CogProducerList) {
        record(.dependenciesChanged(consumer: consumer, producers: producers.ids))
    }
}
