import CogTraceFormat

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
struct StreamEncoder: ~Copyable {
    private var converter: TraceConverter
    /// The record handed over in parts and not closed yet, and its events converted so far.
    /// Its line waits for the closing record (`idle` or `turn`), since state records handed over
    /// meanwhile (states the events create) must come before it in the file.
    private var openRecord: OpenRecord?
    private var openElements = ByteBuffer()
    private var openHasElements = false

    /// A record being converted in parts.
    private enum OpenRecord: Equatable {
        /// The idle stretch after turn `after`.
        case idle(after: Int)
        /// The turn under way.
        case turn
    }

    /// How many states the graph holds.
    var graphSize: Int { converter.graph.count }

    /// Starts from `snapshot`, the graph as the stream's opening keyframe shows it.
    init(from snapshot: GraphSnapshot) {
        converter = TraceConverter(from: snapshot)
    }

    /// Events a record converted in parts holds before they are written from the encoder's own
    /// buffer (`writeDirectly`) rather than copied into the lines: a lattice's first reads make
    /// an idle record of a megabyte and more, and copying it grew the lines past the room a burst
    /// has, every new page a fault.
    static let directSize = 1 << 16

    /// Appends `batch`'s records to `lines`, converting its events in order. A big record
    /// converted in parts is handed to `writeDirectly` with the lines before it, to be written
    /// as it lies.
    mutating func encode(
        _ batch: StreamBatch, into lines: inout TraceLines,
        writeDirectly: (inout TraceLines, borrowing ByteBuffer) -> Void
    ) {
        // By index, so each record is read where it lies rather than copied out (every field
        // retained, then released) and freed again with the batch.
        for index in batch.records.indices {
            switch batch.records[index] {
            case .line(let json):
                lines.append(json)
            case .state(let info):
                lines.append(info)
            case .keyframe(let sequence):
                lines.append(converter.snapshot.keyframeJSONValue(before: sequence))
            case .turnPart(let records):
                convertPart(of: .turn, batch.events, records: records)
            case .turn(let turn, let records):
                guard openRecord != nil else {
                    lines.append(turn, events: batch.events, records: records, convertedBy: &converter)
                    continue
                }
                assert(openRecord == .turn, "a turn's parts are closed by the turn")
                convertPart(of: .turn, batch.events, records: records)
                lines.appendOpening { turn.write(to: &$0) { _ in } }
                closeOpenRecord(in: &lines, writeDirectly: writeDirectly)
            case .idlePart(let sequence, let records):
                convertPart(of: .idle(after: sequence), batch.events, records: records)
            case .idle(let sequence, let records):
                guard openRecord != nil else {
                    lines.appendIdle(after: sequence, events: batch.events, records: records, convertedBy: &converter)
                    continue
                }
                assert(openRecord == .idle(after: sequence), "an idle stretch closes after the turn it opened after")
                convertPart(of: .idle(after: sequence), batch.events, records: records)
                if openHasElements {
                    lines.appendOpening { TraceTurn.writeIdle(after: sequence, to: &$0) { _ in } }
                    closeOpenRecord(in: &lines, writeDirectly: writeDirectly)
                }
                openRecord = nil
            }
        }
    }

    /// Ends the open record, whose opening `lines` ends with: its events, then its closing.
    private mutating func closeOpenRecord(
        in lines: inout TraceLines, writeDirectly: (inout TraceLines, borrowing ByteBuffer) -> Void
    ) {
        if openElements.count >= Self.directSize {
            writeDirectly(&lines, openElements)
        } else {
            lines.appendEvents(openElements)
        }
        lines.appendClosing()
        openRecord = nil
    }

    /// Converts `records` of `events` into the open record's elements, opening `record` when
    /// none is.
    private mutating func convertPart(of record: OpenRecord, _ events: PortableEvents, records: Range<Int>) {
        if openRecord == nil {
            openRecord = record
            openElements.removeAll()
            openElements.reserveCapacity(1 << 16)
            openHasElements = false
        }
        assert(openRecord == record, "parts of one record at a time")
        converter.writePart(events, records: records, to: &openElements, hasElements: &openHasElements)
    }
}
