import Cog

/// A probe that drops every event: timing it separates what the runtime spends building events
/// from what the recorder spends keeping them.
final class DiscardingProbe: CogProbe {
    func record(_ event: consuming CogProbeEvent) {}
    func signal(_ signal: CogProbeSignal) {}
    func recordStateCreated<Value>(_ info: CogStateInfo, value: UnsafePointer<Value>?) {}
    func recordRecompute<Value>(
        state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>,
        changed: Bool, trigger: CogStateID?
    ) {}
    func recordFirstRun<Value>(state: CogStateID, value: UnsafePointer<Value>, trigger: CogStateID?) {}
    func recordWrite<Value>(state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>) {}
    func recordDependenciesChanged(consumer: CogStateID, producers: borrowing CogProducerList) {}
}
