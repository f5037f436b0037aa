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
    /// The idle stretch handed over in parts and not closed yet: after which turn, and its
    /// events converted so far. Its record waits for the closing `idle`, since state records
    /// handed over meanwhile (states the stretch creates) must come before it in the file.
    private var openIdle: Int?
    private var idleElements = ByteBuffer()
    private var idleHasElements = false

    /// How many states the graph holds.
    var graphSize: Int { converter.snapshot.states.count }

    /// Starts from `snapshot`, the graph as the stream's opening keyframe shows it.
    init(from snapshot: GraphSnapshot) {
        converter = TraceConverter(from: snapshot)
    }

    /// Appends `batch`'s records to `lines`, converting its events in order.
    mutating func encode(_ batch: StreamBatch, into lines: inout TraceLines) {
        // By index, so each record is read where it lies rather than copied out (every field
        // retained, then released) and freed again with the batch.
        for index in batch.records.indices {
            switch batch.records[index] {
            case .line(let json):
                lines.append(json)
            case .state(let info):
                lines.append(TraceStateInfo(info))
            case .keyframe(let sequence):
                lines.append(converter.snapshot.keyframeJSONValue(before: sequence))
            case .turn(let turn, let records):
                lines.append(turn, events: batch.events, records: records, convertedBy: &converter)
            case .idlePart(let sequence, let records):
                if openIdle == nil {
                    openIdle = sequence
                    idleElements.removeAll()
                    idleElements.reserveCapacity(1 << 16)
                    idleHasElements = false
                }
                converter.writeIdlePart(
                    batch.events, records: records, to: &idleElements, hasElements: &idleHasElements)
            case .idle(let sequence, let records):
                guard let opened = openIdle else {
                    lines.appendIdle(after: sequence, events: batch.events, records: records, convertedBy: &converter)
                    continue
                }
                assert(opened == sequence, "an idle stretch closes after the turn it opened after")
                converter.writeIdlePart(
                    batch.events, records: records, to: &idleElements, hasElements: &idleHasElements)
                if idleHasElements { lines.appendIdle(after: opened, written: idleElements) }
                openIdle = nil
            }
        }
    }
}
