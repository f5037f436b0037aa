import Cog

/// The probe events of one turn (or of the time between turns), packed into segments of at most
/// `segmentCapacity` events.
///
/// The busy events (recomputes, writes, dependency lists, notices, reaction runs) become 32-byte
/// records with no references, so keeping one is a store into a preallocated array and freeing
/// a turn frees a few arrays, not every event's boxed values one by one. Segments stay small
/// enough for the allocator to reuse, and appending never moves what is already kept. A small
/// turn's events live in one segment. Reading a buffer gives back the probe events themselves,
/// so the converter sees exactly what the probe reported.
///
/// Nonisolated, and free of closures on the append path: a closure formed in MainActor code
/// checks its executor each time it runs, which here would cost more than the append.
nonisolated struct EventBuffer: Sequence {
    /// Events per segment: 512 records of 32 bytes, well under glibc's 128 KiB mmap threshold.
    static let segmentCapacity = 512

    /// Full segments, oldest first.
    private var sealed: [EventSegment] = []
    /// The segment that takes the next event.
    private var open: EventSegment
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// An empty buffer with room for `capacity` events in its first segment (at most a segment's worth).
    init(reservingCapacity capacity: Int = 0) {
        open = EventSegment(reservingCapacity: Swift.min(capacity, Self.segmentCapacity))
    }

    // MARK: Appending

    /// Keeps an event that arrived as a plain probe event.
    mutating func append(_ event: CogProbeEvent) {
        makeRoom()
        open.append(event)
    }

    /// Keeps a recompute, its values packed.
    mutating func appendRecompute<Value>(state: CogStateID, old: borrowing Value, new: borrowing Value, changed: Bool,
                                         trigger: CogStateID?) {
        guard let id = UInt32(exactly: state.rawValue), Self.fits(trigger) else {
            append(.recompute(state: state, old: copy old, new: copy new, changed: changed, trigger: trigger))
            return
        }
        makeRoom()
        open.appendRecompute(state: id, old: old, new: new, changed: changed, trigger: trigger.map { UInt32($0.rawValue) })
    }

    /// Keeps a first run, its value packed.
    mutating func appendFirstRun<Value>(state: CogStateID, value: borrowing Value, trigger: CogStateID?) {
        guard let id = UInt32(exactly: state.rawValue), Self.fits(trigger) else {
            append(.recompute(state: state, old: nil, new: copy value, changed: true, trigger: trigger))
            return
        }
        makeRoom()
        open.appendFirstRun(state: id, value: value, trigger: trigger.map { UInt32($0.rawValue) })
    }

    /// Keeps a source write, its values packed.
    mutating func appendWrite<Value>(state: CogStateID, old: borrowing Value, new: borrowing Value) {
        guard let id = UInt32(exactly: state.rawValue) else {
            append(.write(state: state, old: copy old, new: copy new))
            return
        }
        makeRoom()
        open.appendWrite(state: id, old: old, new: new)
    }

    /// Keeps a dependency list, copied into the segment's producer table.
    mutating func appendDependencies(consumer: CogStateID, producers: borrowing CogProducerList) {
        guard let id = UInt32(exactly: consumer.rawValue) else {
            append(.dependenciesChanged(consumer: consumer, producers: producers.ids))
            return
        }
        makeRoom()
        open.appendDependencies(consumer: id, producers: producers)
    }

    /// Whether a record's 32-bit field holds `trigger` (absent, or small enough).
    private static func fits(_ trigger: CogStateID?) -> Bool {
        trigger.map { UInt32(exactly: $0.rawValue) != nil } ?? true
    }

    /// Seals the open segment when it is full, and counts the event about to be appended.
    private mutating func makeRoom() {
        count += 1
        guard open.records.count >= Self.segmentCapacity else { return }
        sealed.append(open)
        open = EventSegment(reservingCapacity: Self.segmentCapacity)
    }

    /// Moves every event of `other` to the end of this buffer, leaving `other` empty: a swap when
    /// this one is empty, and otherwise whole segments handed over.
    mutating func take(_ other: inout EventBuffer) {
        guard !other.isEmpty else { return }
        if isEmpty {
            swap(&self, &other)
            return
        }
        sealed.append(open)
        sealed.append(contentsOf: other.sealed)
        open = other.open
        count += other.count
        other = EventBuffer()
    }

    // MARK: Reading

    func makeIterator() -> Iterator {
        Iterator(segments: sealed + [open])
    }

    /// Gives back the kept events in order, as the probe reported them.
    struct Iterator: IteratorProtocol {
        let segments: [EventSegment]
        var segmentIndex = 0
        var recordIndex = 0

        mutating func next() -> CogProbeEvent? {
            while segmentIndex < segments.count {
                if recordIndex < segments[segmentIndex].records.count {
                    defer { recordIndex += 1 }
                    return segments[segmentIndex].event(at: recordIndex)
                }
                segmentIndex += 1
                recordIndex = 0
            }
            return nil
        }
    }
}
