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
}
