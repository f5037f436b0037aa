import CogTraceFormat

/// One record of a streamed trace as the app's thread hands it over: ready JSON, or what the
/// writer's thread converts (against the graph it keeps) and encodes.
enum StreamRecord {
    /// A header, state, failure or trailer record, already built.
    case line(JSONValue)
    /// A state's entry in the state table.
    case state(TraceStateInfo)
    /// A keyframe of the graph as it stands before turn `before`.
    case keyframe(before: Int)
    /// A turn: its record without events, then its events and the events after it.
    case turn(TraceTurn, events: PortableEvents, after: PortableEvents)
    /// The events after turn `after` (0: before the first) and before the next one.
    case idle(after: Int, PortableEvents)
}

/// Records handed to the writer together, in order.
///
/// Sendable by hand: its portable events were made settling (every value rendered on the app's
/// thread, asserted in debug builds), and a turn's record goes over with no events, so nothing
/// of the app's crosses.
struct StreamBatch: @unchecked Sendable {
    private(set) var records: [StreamRecord] = []

    var isEmpty: Bool { records.isEmpty }

    mutating func append(_ record: StreamRecord) {
        switch record {
        case .turn(let turn, let events, let after):
            assert(turn.events.isEmpty && turn.after.isEmpty && events.isSettled && after.isSettled)
        case .idle(_, let events):
            assert(events.isSettled)
        case .line, .state, .keyframe:
            break
        }
        records.append(record)
    }

    mutating func append(contentsOf records: some Sequence<StreamRecord>) {
        for record in records { append(record) }
    }
}

/// A graph for the writer's thread to start from.
///
/// Sendable by hand: the one way in is `init`, which settles every value on the caller's
/// thread, so none of the app's values crosses.
struct SettledSnapshot: @unchecked Sendable {
    let snapshot: GraphSnapshot

    init(settling snapshot: GraphSnapshot) {
        self.snapshot = snapshot.settlingValues
    }
}

/// The writer's side of a stream: the graph the records describe, kept on whichever thread
/// writes, and the encoding of records into the file's bytes.
struct StreamEncoder {
    private var converter: TraceConverter

    /// Starts from `snapshot`, the graph as the stream's opening keyframe shows it.
    init(from snapshot: GraphSnapshot) {
        converter = TraceConverter(from: snapshot)
    }

    /// Appends `batch`'s records to `lines`, converting its events in order.
    mutating func encode(_ batch: StreamBatch, into lines: inout TraceLines) {
        for record in batch.records {
            switch record {
            case .line(let json):
                lines.append(json)
            case .state(let info):
                lines.append(info.jsonValue)
            case .keyframe(let sequence):
                lines.append(converter.snapshot.keyframeJSONValue(before: sequence))
            case .turn(var turn, let events, let after):
                turn.events = converter.convert(events)
                turn.after = converter.convert(after)
                lines.append(turn)
            case .idle(let sequence, let events):
                lines.appendAfter(CogRecorder.idleRecord(after: sequence, events: converter.convert(events)))
            }
        }
    }
}
