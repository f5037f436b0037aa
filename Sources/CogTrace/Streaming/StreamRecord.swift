import Cog
import CogTraceFormat

/// One record of a streamed trace as the app's thread hands it over: ready JSON, or what the
/// writer's thread converts (against the graph it keeps) and encodes.
enum StreamRecord {
    /// A header, state, failure or trailer record, already built.
    case line(JSONValue)
    /// A state's entry in the state table, made on the writer's thread from what the runtime
    /// said of the state (every part of it Sendable).
    case state(CogStateInfo)
    /// A keyframe of the graph as it stands before turn `before`.
    case keyframe(before: Int)
    /// A turn as it ends: its record without events, then where its events are in the
    /// batch's (after `turnPart`s, the rest of them). Nothing has happened after it yet; what
    /// does goes over as `idle`.
    case turn(TraceTurn, events: Range<Int>)
    /// Some of the events of the turn under way, handed over while it goes on, so the writer
    /// converts a long turn beside the app rather than all at once when it ends. Its record is
    /// written when the turn's own arrives, after any state records handed over meanwhile.
    case turnPart(Range<Int>)
    /// The events after turn `after` (0: before the first) and before the next one; after
    /// `idlePart`s, the rest of them.
    case idle(after: Int, Range<Int>)
    /// Some of the events after turn `after`, handed over while that stretch goes on, so the
    /// writer converts them beside the app instead of all at once when it ends. Its record is
    /// written when the closing `idle` arrives, after any state records handed over meanwhile.
    case idlePart(after: Int, Range<Int>)
}

/// Records handed to the writer together, in order, and the events their turns and idle
/// stretches name: one copy for the lot, since a turn and the stretch before it go over
/// together (two copies had been two allocations a turn, made on one thread, freed on another).
///
/// Sendable by hand: its events are made settling (every value rendered on the app's thread,
/// asserted in debug builds), and a turn's record goes over with no events of its own, so
/// nothing of the app's crosses.
struct StreamBatch: @unchecked Sendable {
    private(set) var records: [StreamRecord] = []
    /// The events the records name by range.
    var events = PortableEvents()

    var isEmpty: Bool { records.isEmpty }

    /// How many records, events, values and producers its storage has room for: what it would
    /// keep as a spare.
    var capacity: Int {
        records.capacity + events.records.capacity + events.values.capacity + events.producers.capacity
            + events.whole.capacity
    }

    /// Empties the batch for reuse, keeping its storage.
    mutating func removeAll() {
        records.removeAll(keepingCapacity: true)
        events.removeAll()
    }

    mutating func append(_ record: consuming StreamRecord) {
        assert(isPortable(record))
        // A turn's batch is a few records: room for them at once rather than growing twice.
        if records.capacity == 0 { records.reserveCapacity(4) }
        records.append(record)
    }

    /// Whether nothing of the app's is left: every value rendered, and a turn's record
    /// without events of its own. Only asserted, so release builds never look.
    private func isPortable(_ record: borrowing StreamRecord) -> Bool {
        switch record {
        case .turn(let turn, _): turn.events.isEmpty && turn.after.isEmpty && events.isSettled
        case .idle, .idlePart, .turnPart: events.isSettled
        case .line, .state, .keyframe: true
        }
    }
}
