import Cog

/// Turns probe events into trace events in order, keeping the graph they describe. A probe
/// reports a consumer's whole new dependency list; the converter compares it with the previous
/// one to record each edge added and removed, and the lease a reaction, watch or export takes or
/// gives up, so the runtime's hot path reports one event where the trace shows several.
@MainActor
struct TraceConverter {
    private(set) var snapshot: GraphSnapshot
    private let recorder: CogRecorder

    init(from snapshot: GraphSnapshot, recorder: CogRecorder) {
        self.snapshot = snapshot
        self.recorder = recorder
    }

    /// Converts and applies one event.
    mutating func convert(_ event: CogProbeEvent) -> [TraceEvent] {
        let traced = Self.traced(event, in: snapshot, recorder: recorder)
        for item in traced { snapshot.apply(item) }
        return traced
    }

    /// Converts a sequence of events.
    mutating func convert(_ events: some Sequence<CogProbeEvent>) -> [TraceEvent] {
        var traced: [TraceEvent] = []
        for event in events { traced += convert(event) }
        return traced
    }

    /// Applies events to `snapshot` in place, keeping nothing else: how evicted turns fold into
    /// the ring's base without copying it or building the trace events only to drop them.
    static func fold(_ events: some Sequence<CogProbeEvent>, into snapshot: inout GraphSnapshot, recorder: CogRecorder)
    {
        for event in events {
            switch event {
            case .dependenciesChanged, .unregistered:
                for item in traced(event, in: snapshot, recorder: recorder) { snapshot.apply(item) }
            default:
                if let single = recorder.trace(event) { snapshot.apply(single) }
            }
        }
    }

    private static func traced(
        _ event: CogProbeEvent, in snapshot: GraphSnapshot, recorder: CogRecorder
    ) -> [TraceEvent] {
        switch event {
        case .dependenciesChanged(let consumer, let producers):
            return dependencyChanges(consumer.nodeID, to: producers.map(\.nodeID), in: snapshot)
        case .unregistered(let registration):
            var traced = dependencyChanges(registration.nodeID, to: [], in: snapshot)
            traced.removeLast()
            traced.append(.unregistered(registration: registration.nodeID))
            return traced
        default:
            return recorder.trace(event).map { [$0] } ?? []
        }
    }

    private static func dependencyChanges(
        _ consumer: NodeID, to producers: [NodeID], in snapshot: GraphSnapshot
    ) -> [TraceEvent] {
        let holder = snapshot.registrations[consumer]
        let previous = snapshot.states[consumer]?.dependencies ?? holder?.dependencies ?? []
        let previousSet = Set(previous)
        let currentSet = Set(producers)
        var events: [TraceEvent] = []
        for producer in producers where !previousSet.contains(producer) {
            events.append(.edgeAdded(consumer: consumer, producer: producer))
            if let holder { events.append(.leaseAcquired(state: producer, holder: holder.name)) }
        }
        for producer in previous where !currentSet.contains(producer) {
            events.append(.edgeRemoved(consumer: consumer, producer: producer))
            if let holder { events.append(.leaseReleased(state: producer, holder: holder.name)) }
        }
        events.append(.dependencies(consumer: consumer, producers: producers))
        return events
    }
}
