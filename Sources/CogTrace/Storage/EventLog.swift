import Cog

/// Every event the recorder keeps, in arrival order, packed into segments of
/// `segmentCapacity` events; a turn, the events after it, and the events folded into the base
/// are ranges of global event indices.
///
/// The busy events (recomputes, writes, dependency lists, notices, reaction runs, lease
/// renewals, grace schedules) are 32-byte records with no references (see `PackedEvent`), so
/// keeping one is a store into a preallocated array. Turns cost no allocation of their own, and
/// dropping evicted history hands whole segments back for reuse instead of releasing events one
/// by one. Reading a range copies its records out as they are (`PortableEvents`), so the
/// converter sees exactly what the probe reported.
///
/// Nonisolated, and free of closures on the append path: a closure formed in MainActor code
/// checks its executor each time it runs, which here would cost more than the append.
struct EventLog {
    /// Events per segment: 512 records of 32 bytes, well under glibc's 128 KiB mmap threshold.
    static let segmentCapacity = 512
    /// Emptied segments kept for reuse, so a ring that evicts steadily stops allocating.
    private static let spareLimit = 4

    /// Live segments from `firstSegment` on; every one but the last is full.
    private var segments: ContiguousArray<EventSegment> = []
    private var firstSegment = 0
    private var spares: [EventSegment] = []
    /// The global index of the first event still kept.
    private(set) var startIndex = 0
    /// The global index the next event will have.
    private(set) var endIndex = 0
    /// The grace window packed last, as the seconds and attoseconds a record keeps: states of
    /// one declaration share their window, and `Duration.components` divides a 128-bit count,
    /// which a lattice run that schedules thousands of windows would otherwise pay for each
    /// (docs/performance.md, "Recorder and streaming").
    private var lastGrace = GraceParts(Duration.zero)
    /// How many events the last segment holds; starts full so the first event opens one.
    private var openCount = EventLog.segmentCapacity

    // MARK: Appending

    /// Keeps an event that arrived as a plain probe event.
    mutating func append(_ event: CogProbeEvent) {
        let last = openSegment()
        segments[last].append(event)
    }

    /// Keeps a signal, packed.
    @inline(__always)
    mutating func append(_ signal: CogProbeSignal) {
        let last = openSegment()
        if !segments[last].append(signal, lastGrace: &lastGrace) {
            segments[last].append(signal.event)
        }
    }

    /// Keeps a state's creation, its value packed.
    mutating func appendStateCreated<Value>(_ info: CogStateInfo, value: UnsafePointer<Value>?) {
        guard let id = UInt32(exactly: info.id.rawValue) else {
            let initial: Any? = if let value { value.pointee } else { nil }
            append(.stateCreated(info, value: initial))
            return
        }
        let last = openSegment()
        segments[last].appendStateCreated(state: id, value: value)
    }

    /// Keeps a recompute, its values packed.
    @inline(__always)
    mutating func appendRecompute<Value>(
        state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>,
        changed: Bool, trigger: CogStateID?
    ) {
        guard let id = UInt32(exactly: state.rawValue), Self.fits(trigger) else {
            append(.recompute(state: state, old: old.pointee, new: new.pointee, changed: changed, trigger: trigger))
            return
        }
        let last = openSegment()
        segments[last].appendRecompute(
            state: id, old: old, new: new, changed: changed,
            trigger: trigger.map { UInt32($0.rawValue) })
    }

    /// Keeps a first run, its value packed.
    @inline(__always)
    mutating func appendFirstRun<Value>(state: CogStateID, value: UnsafePointer<Value>, trigger: CogStateID?) {
        guard let id = UInt32(exactly: state.rawValue), Self.fits(trigger) else {
            append(.recompute(state: state, old: nil, new: value.pointee, changed: true, trigger: trigger))
            return
        }
        let last = openSegment()
        segments[last].appendFirstRun(state: id, value: value, trigger: trigger.map { UInt32($0.rawValue) })
    }

    /// Keeps a source write, its values packed.
    @inline(__always)
    mutating func appendWrite<Value>(state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>) {
        guard let id = UInt32(exactly: state.rawValue) else {
            append(.write(state: state, old: old.pointee, new: new.pointee))
            return
        }
        let last = openSegment()
        segments[last].appendWrite(state: id, old: old, new: new)
    }

    /// Keeps a dependency list, copied into the segment's producer table.
    mutating func appendDependencies(consumer: CogStateID, producers: borrowing CogProducerList) {
        guard let id = UInt32(exactly: consumer.rawValue) else {
            append(.dependenciesChanged(consumer: consumer, producers: producers.ids))
            return
        }
        let last = openSegment()
        segments[last].appendDependencies(consumer: id, producers: producers)
    }

    /// Whether a record's 32-bit field holds `trigger` (absent, or small enough).
    private static func fits(_ trigger: CogStateID?) -> Bool {
        trigger.map { UInt32(exactly: $0.rawValue) != nil } ?? true
    }

    /// The index of the segment that takes the next event, opening one when the last is full;
    /// counts the event about to be appended.
    @inline(__always)
    private mutating func openSegment() -> Int {
        endIndex += 1
        openCount += 1
        if openCount <= Self.segmentCapacity { return segments.count - 1 }
        return openNewSegment()
    }

    private mutating func openNewSegment() -> Int {
        segments.append(spares.popLast() ?? EventSegment(reservingCapacity: Self.segmentCapacity))
        openCount = 1
        return segments.count - 1
    }

    // MARK: Dropping

    /// Lets go of every whole segment that holds only events before `index`, keeping a few
    /// for reuse.
    mutating func discard(before index: Int) {
        while firstSegment < segments.count - 1, startIndex + Self.segmentCapacity <= index {
            var segment = EventSegment()
            swap(&segment, &segments[firstSegment])
            if spares.count < Self.spareLimit {
                segment.removeAll()
                spares.append(segment)
            }
            firstSegment += 1
            startIndex += Self.segmentCapacity
        }
        if firstSegment > 64, firstSegment * 2 > segments.count {
            segments.removeFirst(firstSegment)
            firstSegment = 0
        }
    }

    // MARK: Reading

    /// Calls `body` with each segment that holds part of `range`, and the part's indices within
    /// it, oldest first. The range must lie within `startIndex..<endIndex`.
    func forEachSegment(in range: Range<Int>, _ body: (borrowing EventSegment, Range<Int>) -> Void) {
        precondition(range.lowerBound >= startIndex && range.upperBound <= endIndex, "events outside the kept log")
        var position = range.lowerBound
        while position < range.upperBound {
            let offset = position - startIndex
            let segment = firstSegment + offset / Self.segmentCapacity
            let local = offset % Self.segmentCapacity
            let count = min(Self.segmentCapacity - local, range.upperBound - position)
            body(segments[segment], local..<local + count)
            position += count
        }
    }
}
