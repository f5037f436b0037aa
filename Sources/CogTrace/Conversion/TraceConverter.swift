import CogTraceFormat

/// Turns kept events into trace events in order, keeping the graph they describe. A probe
/// reports a consumer's whole new dependency list; the converter compares it with the previous
/// one to record each edge added and removed, and the lease a reaction, watch or export takes or
/// gives up, so the runtime's hot path reports one event where the trace shows several.
///
/// It reads `PortableEvents` and nothing of the recorder's, so it runs on whichever thread owns
/// it: the app's for a ring written out, the stream writer's for a streamed trace.
struct TraceConverter {
    /// The graph as the events converted so far leave it, packed (`PackedGraph`).
    var graph: PackedGraph
    /// The dependency list being written, in storage kept from one list to the next: a list
    /// made for each record was an allocation and a free, about 450 instructions, for every
    /// state a lattice computes (`write(_:records:to:)`).
    var listedProducers: [NodeID] = []

    init(from snapshot: GraphSnapshot) {
        graph = PackedGraph(snapshot)
    }

    /// The graph as the events converted so far leave it, as a keyframe shows it.
    var snapshot: GraphSnapshot { graph.snapshot }

    /// Converts `events` and applies each to the graph.
    mutating func convert(_ events: PortableEvents) -> [TraceEvent] {
        var traced: [TraceEvent] = []
        traced.reserveCapacity(events.records.count)
        Self.convert(events, into: &traced, applyingTo: &graph)
        return traced
    }

    /// Applies `events` to `snapshot` in place, keeping nothing else: how evicted turns fold
    /// into the ring's base.
    static func fold(_ events: PortableEvents, into snapshot: inout GraphSnapshot) {
        var traced: [TraceEvent] = []
        convert(events, into: &traced, applyingTo: &snapshot)
    }

    private static func convert<Graph: ConvertedGraph>(
        _ events: PortableEvents, into traced: inout [TraceEvent], applyingTo graph: inout Graph
    ) {
        for record in events.records {
            let start = traced.count
            append(record, of: events, to: &traced, in: graph)
            for index in start..<traced.count { graph.applyEvent(traced[index]) }
        }
    }

    /// The trace events one record stands for: one, or for a dependency list (or a registration
    /// ending) each edge and lease that changed, then the list itself.
    static func append<Graph: ConvertedGraph>(
        _ record: PackedEvent, of events: PortableEvents, to traced: inout [TraceEvent], in graph: Graph
    ) {
        let state = NodeID(Int(record.state))
        switch record.kind {
        case .stateCreated:
            traced.append(.stateCreated(state: state, value: value(record.newSlot, record.new, in: events)))
        case .recompute:
            traced.append(
                .recompute(
                    state: state, old: value(record.oldSlot, record.old, in: events),
                    new: value(record.newSlot, record.new, in: events), changed: record.changed,
                    trigger: record.hasTrigger ? NodeID(Int(record.trigger)) : nil))
        case .write:
            traced.append(
                .write(
                    state: state, old: value(record.oldSlot, record.old, in: events)!,
                    new: value(record.newSlot, record.new, in: events)!))
        case .dependencies:
            appendDependencyChanges(state, to: producers(of: record, in: events), to: &traced, in: graph)
        case .notice:
            traced.append(.notice(state: state))
        case .reactionRun:
            traced.append(.reactionRun(registration: state))
        case .leaseRenewed:
            traced.append(.leaseRenewed(state: state, holder: leaseHolder(of: record)))
        case .graceScheduled:
            traced.append(.graceScheduled(state: state, milliseconds: graceMilliseconds(of: record)))
        case .whole:
            switch events.whole[Int(record.old)] {
            case .dependencies(let consumer, let producers):
                appendDependencyChanges(consumer, to: producers, to: &traced, in: graph)
            case .unregistered(let registration):
                appendDependencyChanges(registration, to: [], to: &traced, in: graph)
                traced.removeLast()
                traced.append(.unregistered(registration: registration))
            case let event:
                traced.append(event)
            }
        }
    }

    /// A lease renewal's holder. The record points at a static string of the process's, whose
    /// bytes never move or go.
    static func leaseHolder(of record: PackedEvent) -> String {
        let bytes = UnsafeBufferPointer(
            start: UnsafePointer<UInt8>(bitPattern: UInt(record.old)), count: Int(record.new))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A grace window's length in whole milliseconds, from its seconds and attoseconds.
    static func graceMilliseconds(of record: PackedEvent) -> Int {
        Int(Int64(bitPattern: record.old)) * 1_000 + Int(Int64(bitPattern: record.new) / 1_000_000_000_000_000)
    }

    /// The producers a dependency record lists.
    static func producers(of record: PackedEvent, in events: PortableEvents) -> [NodeID] {
        events.producers[producerRange(of: record)].map { NodeID($0) }
    }

    /// Where a dependency record's producers are in its events' `producers`.
    static func producerRange(of record: PackedEvent) -> Range<Int> {
        Int(record.old)..<Int(record.old) + Int(record.new)
    }

    /// The value a slot names: its bits for `Int`, `Bool` and `Double`, else `events.values`.
    static func value(_ slot: PackedEvent.Slot, _ bits: UInt64, in events: PortableEvents) -> TraceValue? {
        switch slot {
        case .none: nil
        case .int: TraceValue(rendering: Int(Int64(bitPattern: bits)))
        case .bool: TraceValue(rendering: bits != 0)
        case .double: TraceValue(rendering: Double(bitPattern: bits))
        case .boxed: events.values[Int(bits)]
        }
    }

    private static func appendDependencyChanges(
        _ consumer: NodeID, to producers: [NodeID], to events: inout [TraceEvent], in graph: some ConvertedGraph
    ) {
        let change = graph.dependencyChange(of: consumer, to: producers)
        change.forEachAdded { producer in
            events.append(.edgeAdded(consumer: consumer, producer: producer))
            if let holder = change.holder { events.append(.leaseAcquired(state: producer, holder: holder)) }
        }
        change.forEachRemoved { producer in
            events.append(.edgeRemoved(consumer: consumer, producer: producer))
            if let holder = change.holder { events.append(.leaseReleased(state: producer, holder: holder)) }
        }
        events.append(.dependencies(consumer: consumer, producers: producers))
    }
}
