import CogTraceFormat

/// Turns kept events into trace events in order, keeping the graph they describe. A probe
/// reports a consumer's whole new dependency list; the converter compares it with the previous
/// one to record each edge added and removed, and the lease a reaction, watch or export takes or
/// gives up, so the runtime's hot path reports one event where the trace shows several.
///
/// It reads `PortableEvents` and nothing of the recorder's, so it runs on whichever thread owns
/// it: the app's for a ring written out, the stream writer's for a streamed trace.
struct TraceConverter {
    /// The graph as the events converted so far leave it.
    var snapshot: GraphSnapshot

    init(from snapshot: GraphSnapshot) {
        self.snapshot = snapshot
    }

    /// Converts `events` and applies each to the graph.
    mutating func convert(_ events: PortableEvents) -> [TraceEvent] {
        var traced: [TraceEvent] = []
        traced.reserveCapacity(events.records.count)
        Self.convert(events, into: &traced, applyingTo: &snapshot)
        return traced
    }

    /// Applies `events` to `snapshot` in place, keeping nothing else: how evicted turns fold
    /// into the ring's base.
    static func fold(_ events: PortableEvents, into snapshot: inout GraphSnapshot) {
        var traced: [TraceEvent] = []
        convert(events, into: &traced, applyingTo: &snapshot)
    }

    private static func convert(
        _ events: PortableEvents, into traced: inout [TraceEvent], applyingTo snapshot: inout GraphSnapshot
    ) {
        for record in events.records {
            let start = traced.count
            append(record, of: events, to: &traced, in: snapshot)
            for index in start..<traced.count { snapshot.apply(traced[index]) }
        }
    }

    /// The trace events one record stands for: one, or for a dependency list (or a registration
    /// ending) each edge and lease that changed, then the list itself.
    static func append(
        _ record: PackedEvent, of events: PortableEvents, to traced: inout [TraceEvent], in snapshot: GraphSnapshot
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
            appendDependencyChanges(state, to: producers(of: record, in: events), to: &traced, in: snapshot)
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
                appendDependencyChanges(consumer, to: producers, to: &traced, in: snapshot)
            case .unregistered(let registration):
                appendDependencyChanges(registration, to: [], to: &traced, in: snapshot)
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
        let start = Int(record.old)
        return events.producers[start..<start + Int(record.new)].map { NodeID($0) }
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
        _ consumer: NodeID, to producers: [NodeID], to events: inout [TraceEvent], in snapshot: GraphSnapshot
    ) {
        let change = DependencyChange(of: consumer, to: producers, in: snapshot)
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

/// What a new dependency list changes against the graph: the edges added and removed, in the
/// order the trace writes them, and the registration whose leases follow its edges. Read in
/// place, so a list costs no arrays beyond the two it compares.
struct DependencyChange {
    /// The name of the registration holding the list, when a registration holds it.
    let holder: String?
    private let previous: [NodeID]
    private let producers: [NodeID]

    init(of consumer: NodeID, to producers: [NodeID], in snapshot: GraphSnapshot) {
        // States and registrations share one id space, so a state's list has no holder. It is
        // read where it lies: the table's subscript would copy the whole state out (its value,
        // lists and leases retained, then released) for one field.
        if let position = snapshot.states.position(of: consumer) {
            holder = nil
            previous = snapshot.states.read(at: position) { $0.dependencies }
        } else {
            let registration = snapshot.registrations[consumer]
            holder = registration?.name
            previous = registration?.dependencies ?? []
        }
        self.producers = producers
    }

    /// Each producer the new list has and the old one lacks, in the new list's order.
    func forEachAdded(_ body: (NodeID) -> Void) { Self.forEach(in: producers, missingFrom: previous, body) }

    /// Each producer the old list had and the new one lacks, in the old list's order.
    func forEachRemoved(_ body: (NodeID) -> Void) { Self.forEach(in: previous, missingFrom: producers, body) }

    private static func forEach(in list: [NodeID], missingFrom other: [NodeID], _ body: (NodeID) -> Void) {
        guard !list.isEmpty else { return }
        // Most lists are short: scanning them costs less than hashing them into a set.
        if other.count <= 16 && list.count <= 16 {
            for id in list where !other.contains(id) { body(id) }
        } else {
            let otherSet = Set(other)
            for id in list where !otherSet.contains(id) { body(id) }
        }
    }
}
