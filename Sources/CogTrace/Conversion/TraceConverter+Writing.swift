import CogTraceFormat

/// Converting straight into a trace's bytes, for a writer that keeps no events: the ring written
/// out and the stream writer's thread.
extension TraceConverter {
    /// Converts the records of `events` at `range` (what they name is indexed across the whole
    /// of `events`) as `convert` does, writing each trace event into `array` and applying it to
    /// the graph as it goes. The busiest kinds (a state created, written or recomputed, a
    /// notice, a reaction run) are written from their packed form, so no `TraceEvent` is made,
    /// copied or freed for them; the others go the way `convert` takes.
    mutating func write(_ events: PortableEvents, records range: Range<Int>, to array: inout JSONArrayWriter) {
        var made: [TraceEvent] = []
        func convertWhole(_ record: PackedEvent) {
            made.removeAll(keepingCapacity: true)
            Self.append(record, of: events, to: &made, in: graph)
            for index in made.indices {
                array.append(made[index])
                graph.applyEvent(made[index])
            }
        }
        for index in range {
            let record = events.records[index]
            let state = NodeID(Int(record.state))
            switch record.kind {
            case .stateCreated:
                let value = Self.value(record.newSlot, record.new, in: events)
                array.appendCreated(state: state, value: value)
                graph.recordCreation(of: state, value: value)
            case .recompute:
                let old = Self.value(record.oldSlot, record.old, in: events)
                let new = Self.value(record.newSlot, record.new, in: events)
                let trigger = record.hasTrigger ? NodeID(Int(record.trigger)) : nil
                array.appendRecompute(state: state, old: old, new: new, changed: record.changed, trigger: trigger)
                graph.recordRun(of: state, value: new, changed: record.changed)
            case .write:
                // A write always carries both values; one without goes the converter's way.
                guard let old = Self.value(record.oldSlot, record.old, in: events),
                    let new = Self.value(record.newSlot, record.new, in: events)
                else {
                    convertWhole(record)
                    continue
                }
                array.appendWrite(state: state, old: old, new: new)
                graph.recordWrite(of: state, value: new)
            case .notice:
                array.appendNotice(state: state)
            case .reactionRun:
                array.appendReactionRun(registration: state)
            case .dependencies:
                // A run that read a new list is reported list first, run next: the run's record
                // notes the versions seen, so the list's need not note them first.
                let next = index + 1
                let runsNext =
                    next < range.upperBound && events.records[next].kind == .recompute
                    && events.records[next].state == record.state
                var producers = listProducers(of: record, in: events)
                write(dependencies: producers, of: state, noting: !runsNext, to: &array)
                // Handed back when the graph kept no copy (a registration's list it does keep).
                producers.removeAll(keepingCapacity: true)
                swap(&producers, &listedProducers)
            case .leaseRenewed:
                array.appendLease(kind: "leaseRenewed", state: state, holder: Self.leaseHolder(of: record))
            case .graceScheduled:
                array.appendGraceScheduled(state: state, milliseconds: Self.graceMilliseconds(of: record))
                graph.recordGraceScheduled(of: state)
            case .whole:
                convertWhole(record)
            }
        }
    }

    /// The producers `record` lists, in the storage the last list left (`listedProducers`),
    /// which it takes.
    private mutating func listProducers(of record: PackedEvent, in events: PortableEvents) -> [NodeID] {
        var producers: [NodeID] = []
        swap(&producers, &listedProducers)
        for producer in events.producers[Self.producerRange(of: record)] { producers.append(NodeID(producer)) }
        return producers
    }

    /// Writes a new dependency list as `convert` has it (each edge added, then each removed,
    /// with a registration's lease beside each edge, then the list) and applies it; without
    /// `noting`, leaving the versions its state saw to the run recorded next.
    private mutating func write(
        dependencies producers: [NodeID], of consumer: NodeID, noting notesVersions: Bool,
        to array: inout JSONArrayWriter
    ) {
        // The change reads the previous list where it lies in the graph's pool, so it is gone
        // before the new list is stored there: kept alive, storing would copy the whole pool.
        do {
            let change = graph.dependencyChange(of: consumer, to: producers)
            change.forEachAdded { producer in
                array.appendEdge(kind: "edgeAdded", consumer: consumer, producer: producer)
                if let holder = change.holder {
                    array.appendLease(kind: "leaseAcquired", state: producer, holder: holder)
                    graph.applyEvent(.leaseAcquired(state: producer, holder: holder))
                }
            }
            change.forEachRemoved { producer in
                array.appendEdge(kind: "edgeRemoved", consumer: consumer, producer: producer)
                if let holder = change.holder {
                    array.appendLease(kind: "leaseReleased", state: producer, holder: holder)
                    graph.applyEvent(.leaseReleased(state: producer, holder: holder))
                }
            }
        }
        array.appendDependencies(consumer: consumer, producers: producers)
        graph.recordDependencies(of: consumer, producers, notingVersions: notesVersions)
    }

    /// Converts `events`, part of a turn or an idle stretch not over yet, into `elements`: the
    /// record's events so far, written before the record itself can be (see `StreamEncoder`).
    mutating func writePart(
        _ events: PortableEvents, records: Range<Int>, to elements: inout ByteBuffer, hasElements: inout Bool
    ) {
        JSONArrayWriter.continueElements(in: &elements, hasElements: &hasElements) { array in
            write(events, records: records, to: &array)
        }
    }

    /// Appends turn `turn`'s record, its events converted from `events`.
    mutating func write(_ turn: TraceTurn, events: PortableEvents, records: Range<Int>, to output: inout ByteBuffer) {
        turn.write(to: &output) { array in write(events, records: records, to: &array) }
    }

    /// Appends the `idle` record of `events`, which happened after turn `sequence` (0: before
    /// the first); the caller knows there are some.
    mutating func writeIdle(
        after sequence: Int, events: PortableEvents, records: Range<Int>, to output: inout ByteBuffer
    ) {
        TraceTurn.writeIdle(after: sequence, to: &output) { array in write(events, records: records, to: &array) }
    }
}
