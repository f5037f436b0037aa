/// Hands every event to several probes in order; what `Cogs.addProbe` installs when a second
/// probe joins the first.
final class CogProbeFanOut: CogProbe {
    private(set) var probes: [any CogProbe]

    init(_ probes: [any CogProbe]) {
        self.probes = probes.flatMap { probe -> [any CogProbe] in
            (probe as? CogProbeFanOut)?.probes ?? [probe]
        }
    }

    func record(_ event: consuming CogProbeEvent) {
        for probe in probes.dropLast() { probe.record(copy event) }
        probes.last?.record(event)
    }

    func signal(_ signal: CogProbeSignal) {
        for probe in probes { probe.signal(signal) }
    }

    func recordStateCreated<Value>(_ info: CogStateInfo, value: UnsafePointer<Value>?) {
        for probe in probes { probe.recordStateCreated(info, value: value) }
    }

    func recordRecompute<Value>(
        state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>,
        changed: Bool, trigger: CogStateID?
    ) {
        for probe in probes {
            probe.recordRecompute(state: state, old: old, new: new, changed: changed, trigger: trigger)
        }
    }

    func recordFirstRun<Value>(state: CogStateID, value: UnsafePointer<Value>, trigger: CogStateID?) {
        for probe in probes { probe.recordFirstRun(state: state, value: value, trigger: trigger) }
    }

    func recordWrite<Value>(state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>) {
        for probe in probes { probe.recordWrite(state: state, old: old, new: new) }
    }

    func recordDependenciesChanged(consumer: CogStateID, producers: borrowing CogProducerList) {
        for probe in probes { probe.recordDependenciesChanged(consumer: consumer, producers: producers) }
    }
}
