import Cog
import CogTesting
import Testing

private let _readingCog = Cog<Int>.Manual(name: "probe.reading") { 1 }
private let labelCog = Cog<String>(name: "probe.label") { c in "reading \(c[_readingCog])" }

/// A probe that takes the typed entry points, reading the lent values as it is handed them.
private final class TypedProbe: CogProbe {
    var lines: [String] = []

    func record(_ event: consuming CogProbeEvent) {}

    func signal(_ signal: CogProbeSignal) {
        if case .leaseRenewed(let state, let holder) = signal { lines.append("lease \(state) \(holder)") }
    }

    func recordRecompute<Value>(
        state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>,
        changed: Bool, trigger: CogStateID?
    ) {
        lines.append("recompute \(state) \(old.pointee) -> \(new.pointee) \(changed ? "changed" : "gated")")
    }

    func recordFirstRun<Value>(state: CogStateID, value: UnsafePointer<Value>, trigger: CogStateID?) {
        lines.append("first \(state) \(value.pointee)")
    }

    func recordWrite<Value>(state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>) {
        lines.append("write \(state) \(old.pointee) -> \(new.pointee)")
    }

    func recordDependenciesChanged(consumer: CogStateID, producers: borrowing CogProducerList) {
        lines.append("dependencies \(consumer) \(producers.ids)")
    }
}

@Suite("Probe entry points")
struct ProbeEntryPointTests {
    @Test func typedEntryPointsLendTheValuesThatEventsCarry() throws {
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        let typed = TypedProbe()
        cogs.addProbe(typed)
        #expect(cogs.peek(labelCog) == "reading 1")
        cogs.turn { c in c[_readingCog] = 2 }
        #expect(cogs.peek(labelCog) == "reading 2")
        _ = cogs.peek(labelCog)

        // The record-only probe sees the typed reports as the events they stand for…
        #expect(
            log.lines(startingWith: "recompute", "write", "renew") == [
                "recompute probe.label nil -> reading 1 changed",
                "write probe.reading 1 -> 2",
                "recompute probe.label reading 1 -> reading 2 changed by probe.reading",
                "renew probe.label by peek",
                "renew probe.label by peek",
            ])
        // …and the probe beside it gets the same values through its own entry points.
        func id(of label: String) -> CogStateID? {
            log.events.lazy.compactMap { event -> CogStateID? in
                if case .stateCreated(let info, _) = event, info.label == label { return info.id }
                return nil
            }.first
        }
        let reading = try #require(id(of: "probe.reading"))
        let label = try #require(id(of: "probe.label"))
        #expect(
            typed.lines == [
                "dependencies \(label) [\(reading)]",
                "first \(label) reading 1",
                "write \(reading) 1 -> 2",
                "recompute \(label) reading 1 -> reading 2 changed",
                "lease \(label) peek",
                "lease \(label) peek",
            ])
    }
}
