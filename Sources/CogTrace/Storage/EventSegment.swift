import Cog

/// Up to `EventLog.segmentCapacity` kept events, packed, with the side tables they index.
/// Indices are local to the segment, so a segment is freed or reused whole.
struct EventSegment {
    var records: ContiguousArray<PackedEvent> = []
    /// Values that are not `Int`, `Bool` or `Double`, boxed once on arrival.
    var boxed: ContiguousArray<Any> = []
    /// Dependency lists, each a run named by a `dependencies` record.
    var producers: ContiguousArray<Int> = []
    /// The rarer events, kept as the probe gave them.
    var whole: ContiguousArray<CogProbeEvent> = []

    init(reservingCapacity capacity: Int = 0) {
        guard capacity > 0 else { return }
        records.reserveCapacity(capacity)
        // Room for one producer a record (a lattice's segments list about 0.4), so that the
        // table is not grown and copied ten times over as a segment fills.
        producers.reserveCapacity(capacity)
    }

    /// Empties the segment for reuse, keeping its arrays' storage.
    mutating func removeAll() {
        records.removeAll(keepingCapacity: true)
        boxed.removeAll(keepingCapacity: true)
        producers.removeAll(keepingCapacity: true)
        whole.removeAll(keepingCapacity: true)
    }

    /// Packs the value at `value` into a slot: its bits for `Int`, `Bool` and `Double`, else a
    /// box in `boxed`. The type tests compare metadata pointers, so they cost next to nothing
    /// even in the unspecialized code a probe call runs.
    @inline(__always)
    mutating func pack<Value>(_ value: UnsafePointer<Value>) -> (PackedEvent.Slot, UInt64) {
        let raw = UnsafeRawPointer(value)
        if Value.self == Int.self { return (.int, UInt64(bitPattern: Int64(raw.load(as: Int.self)))) }
        if Value.self == Bool.self { return (.bool, raw.load(as: Bool.self) ? 1 : 0) }
        if Value.self == Double.self { return (.double, raw.load(as: Double.self).bitPattern) }
        boxed.append(value.pointee)
        return (.boxed, UInt64(boxed.count - 1))
    }

    /// Keeps a state's creation, its value packed. Its description is the recorder's to keep
    /// (`CogRecorder.noteState`), once per state: a copy here too was never read, and cost a
    /// lattice's traced run a retain and a release of every declaration's description.
    mutating func appendStateCreated<Value>(state: UInt32, value: UnsafePointer<Value>?) {
        var record = PackedEvent(kind: .stateCreated, state: state)
        if let value {
            let (slot, bits) = pack(value)
            record.setNew(slot, bits)
        }
        records.append(record)
    }

    /// Keeps a recompute, its values packed.
    @inline(__always)
    mutating func appendRecompute<Value>(
        state: UInt32, old: UnsafePointer<Value>, new: UnsafePointer<Value>,
        changed: Bool, trigger: UInt32?
    ) {
        var record = packed(.recompute, state: state, old: old, new: new)
        record.setChanged(changed, trigger: trigger)
        records.append(record)
    }

    /// Keeps a first run: a recompute with no old value.
    @inline(__always)
    mutating func appendFirstRun<Value>(state: UInt32, value: UnsafePointer<Value>, trigger: UInt32?) {
        var record = PackedEvent(kind: .recompute, state: state)
        let (slot, bits) = pack(value)
        record.setNew(slot, bits)
        record.setChanged(true, trigger: trigger)
        records.append(record)
    }

    /// Keeps a source write, its values packed.
    @inline(__always)
    mutating func appendWrite<Value>(state: UInt32, old: UnsafePointer<Value>, new: UnsafePointer<Value>) {
        records.append(packed(.write, state: state, old: old, new: new))
    }

    /// A record of `kind` with both value slots packed.
    @inline(__always)
    private mutating func packed<Value>(
        _ kind: PackedEvent.Kind, state: UInt32, old: UnsafePointer<Value>,
        new: UnsafePointer<Value>
    ) -> PackedEvent {
        var record = PackedEvent(kind: kind, state: state)
        let (oldSlot, oldBits) = pack(old)
        record.setOld(oldSlot, oldBits)
        let (newSlot, newBits) = pack(new)
        record.setNew(newSlot, newBits)
        return record
    }

    /// Keeps a signal; false when one of its identities does not fit a record. `lastGrace` is
    /// the grace window packed last, the log's (`EventLog.lastGrace`): a window the same length
    /// reuses its parts. Inlined into the log's append: a call here was 0.11M instructions of a
    /// lattice run's 4,000 grace windows.
    @inline(__always)
    mutating func append(_ signal: CogProbeSignal, lastGrace: inout GraceParts) -> Bool {
        switch signal {
        case .turnEnded:
            return false
        case .notice(let state):
            guard let id = UInt32(exactly: state.rawValue) else { return false }
            records.append(PackedEvent(kind: .notice, state: id))
        case .reactionRun(let registration):
            guard let id = UInt32(exactly: registration.rawValue) else { return false }
            records.append(PackedEvent(kind: .reactionRun, state: id))
        case .leaseRenewed(let state, let holder):
            // A static string's bytes live as long as the process: keep where they are.
            guard let id = UInt32(exactly: state.rawValue), holder.hasPointerRepresentation else { return false }
            var record = PackedEvent(kind: .leaseRenewed, state: id)
            record.old = UInt64(UInt(bitPattern: holder.utf8Start))
            record.new = UInt64(holder.utf8CodeUnitCount)
            records.append(record)
        case .graceScheduled(let state, let grace):
            guard let id = UInt32(exactly: state.rawValue) else { return false }
            if grace != lastGrace.grace { lastGrace = GraceParts(grace) }
            var record = PackedEvent(kind: .graceScheduled, state: id)
            record.old = UInt64(bitPattern: lastGrace.seconds)
            record.new = UInt64(bitPattern: lastGrace.attoseconds)
            records.append(record)
        }
        return true
    }

    /// Keeps a dependency list as a run of `producers`.
    mutating func appendDependencies(consumer: UInt32, producers: borrowing CogProducerList) {
        var record = PackedEvent(kind: .dependencies, state: consumer)
        record.old = UInt64(self.producers.count)
        producers.appendRawIDs(to: &self.producers)
        record.new = UInt64(self.producers.count) - record.old
        records.append(record)
    }

    /// Keeps an event that arrived as a plain probe event, whole: the busy kinds arrive through
    /// their own entry points.
    mutating func append(_ event: CogProbeEvent) {
        var record = PackedEvent(kind: .whole, state: 0)
        record.old = UInt64(whole.count)
        whole.append(event)
        records.append(record)
    }

    /// The value a slot holds, boxed again as the probe event carried it.
    func unpack(_ slot: PackedEvent.Slot, _ bits: UInt64) -> Any? {
        switch slot {
        case .none: nil
        case .int: Int(Int64(bitPattern: bits))
        case .bool: bits != 0
        case .double: Double(bitPattern: bits)
        case .boxed: boxed[Int(bits)]
        }
    }
}

/// A grace window's length and the two numbers a record keeps of it.
struct GraceParts {
    let grace: Duration
    let seconds: Int64
    let attoseconds: Int64

    init(_ grace: Duration) {
        self.grace = grace
        (seconds, attoseconds) = grace.components
    }
}
