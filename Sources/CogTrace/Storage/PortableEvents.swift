import Cog
import CogTraceFormat

/// A run of kept events that the converter reads on any thread: the packed records copied as
/// they are, with what they index (values that are not `Int`, `Bool` or `Double`, dependency
/// lists, the rarer events) copied beside them and reindexed.
///
/// The app's values never cross in it: a boxed value is a `TraceValue` made on the app's thread,
/// settled (rendered) when the events are for another thread; the rarer events are trace events
/// converted there. Copying the records costs a memory copy, so handing a turn to the stream
/// writer costs the app's thread little more than rendering the values only it may look at.
///
/// Sendable by hand: everything in it is plain data when it was made `settling`, which the
/// recorder does for every run it hands to a stream (the boxed values are asserted rendered in
/// debug builds; the rare whole events are settled by construction).
struct PortableEvents: @unchecked Sendable {
    /// The records, with `.boxed` slots naming `values`, a dependency record's run naming
    /// `producers`, and a whole record naming `whole`.
    var records: ContiguousArray<PackedEvent> = []
    var values: ContiguousArray<TraceValue> = []
    var producers: ContiguousArray<Int> = []
    var whole: ContiguousArray<TraceEvent> = []

    var isEmpty: Bool { records.isEmpty }

    /// Empties the events for reuse, keeping their storage.
    mutating func removeAll() {
        records.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        producers.removeAll(keepingCapacity: true)
        whole.removeAll(keepingCapacity: true)
    }

    /// Whether every boxed value is rendered, so none of the app's remains.
    var isSettled: Bool { values.allSatisfy(\.isSettled) }
}

extension CogRecorder {
    /// The kept events in `range` as the converter reads them. With `settling`, every value is
    /// rendered now, on the app's thread, so the result may go to another thread; without it,
    /// values stay the app's until something renders them (a write in this thread).
    func portable(_ range: Range<Int>, settling: Bool) -> PortableEvents {
        var portable = PortableEvents()
        _ = self.portable(range, settling: settling, into: &portable)
        return portable
    }

    /// Appends the kept events in `range` to `portable`, as `portable(_:settling:)` copies
    /// them, and returns where their records are in it: a stream hands a turn and the stretch
    /// before it over in one copy.
    func portable(_ range: Range<Int>, settling: Bool, into portable: inout PortableEvents) -> Range<Int> {
        let first = portable.records.count
        guard !range.isEmpty else { return first..<first }
        // A first copy leaves room for a short turn after it: a stream copies a stretch between
        // turns, then the turn that ends it, into one batch.
        portable.records.reserveCapacity(first + range.count + (first == 0 ? 8 : 0))
        log.forEachSegment(in: range) { segment, local in
            for index in local {
                var record = segment.records[index]
                switch record.kind {
                case .stateCreated, .recompute, .write:
                    // Bits stay bits; a boxed value, or any value of a redacted state, becomes a
                    // `TraceValue` of the copy's own.
                    let isRedacted = !redactedStates.isEmpty && redactedStates.contains(Int(record.state))
                    // A created state's record has no old value: its slot stays `.none`.
                    if record.oldSlot == .boxed || (isRedacted && record.oldSlot != .none) {
                        record.setOld(
                            .boxed, portable.keep(record.oldSlot, record.old, of: segment, isRedacted, settling))
                    }
                    if record.newSlot == .boxed || (isRedacted && record.newSlot != .none) {
                        record.setNew(
                            .boxed, portable.keep(record.newSlot, record.new, of: segment, isRedacted, settling))
                    }
                case .dependencies:
                    let start = Int(record.old)
                    record.old = UInt64(portable.producers.count)
                    portable.producers.append(contentsOf: segment.producers[start..<start + Int(record.new)])
                case .whole:
                    guard let event = trace(segment.whole[Int(record.old)]) else { continue }
                    record.old = UInt64(portable.whole.count)
                    portable.whole.append(settling ? event.settlingValues : event)
                case .notice, .reactionRun, .leaseRenewed, .graceScheduled:
                    break
                }
                portable.records.append(record)
            }
        }
        return first..<portable.records.count
    }
}

extension PortableEvents {
    /// Keeps the value a slot holds as a `TraceValue` and returns its index: `‹redacted›` for a
    /// redacted state, else the value itself, rendered now when `settling`.
    fileprivate mutating func keep(
        _ slot: PackedEvent.Slot, _ bits: UInt64, of segment: borrowing EventSegment, _ isRedacted: Bool,
        _ settling: Bool
    ) -> UInt64 {
        let value: TraceValue
        if isRedacted {
            value = .redacted
        } else {
            let unpacked = segment.unpack(slot, bits)!
            value = settling ? TraceValue(settling: unpacked) : TraceValue(pending: unpacked)
        }
        values.append(value)
        return UInt64(values.count - 1)
    }
}
