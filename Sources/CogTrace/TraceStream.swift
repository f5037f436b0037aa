import Cog
import CogTraceFormat
import Foundation

/// A trace file being appended to as turns end. Each turn is converted and its values rendered
/// on the app's thread, then encoded and written on the writer's (`StreamWriter`), one write a
/// record, so a crash loses at most what was in flight. A write that fails (a full disk, a file
/// removed or replaced under it) is reported once and streaming stops, while the app and the
/// in-memory ring carry on; what was written still opens, with a warning that it is incomplete.
@MainActor
final class TraceStream {
    private let writer: StreamWriter
    private let onFailure: (RecorderFault) -> Void
    /// How many of the recorder's states (in first-seen order) are already handed to the writer.
    private var writtenStateCount = 0
    private var converter: TraceConverter
    private var keyframes = 0
    private var lastSequence = 0
    private var failure: RecorderFault?

    /// Opens (creating or truncating) the file at `url`.
    /// - Throws: `RecorderFault` when it cannot be opened, naming the path and the system's reason.
    init(url: URL, recorder: CogRecorder, onFailure: @escaping (RecorderFault) -> Void) throws(RecorderFault) {
        self.onFailure = onFailure
        writer = try StreamWriter(path: url.path, writing: recorder.configuration.streamWriting)
        converter = TraceConverter(from: recorder.currentSnapshot(), recorder: recorder)
        lastSequence = recorder.orderedRing.last?.info.id ?? 0
        var records = SettledRecords(lines: [recorder.header(mode: "stream").jsonValue])
        records.lines += newStates(recorder)
        records.lines.append(converter.snapshot.keyframeJSONValue(before: lastSequence + 1))
        keyframes = 1
        writer.write(records)
    }

    /// Before turn `sequence`: what happened since the last turn, and a keyframe when one is due.
    func willBeginTurn(_ sequence: Int, idle: EventRange, recorder: CogRecorder) {
        guard !noticeFault() else { return }
        var records = SettledRecords()
        if !idle.isEmpty {
            records.lines += newStates(recorder)
            records.lines.append(recorder.idleRecord(after: lastSequence, events: converter.convert(idle)))
        }
        if sequence > 1, (sequence - 1) % recorder.configuration.keyframeInterval == 0 {
            records.lines.append(converter.snapshot.keyframeJSONValue(before: sequence))
            keyframes += 1
        }
        if !records.lines.isEmpty { writer.write(records) }
    }

    /// A turn ended: its new states, then its record.
    func append(_ turn: RecordedTurn, recorder: CogRecorder) {
        guard !noticeFault() else { return }
        let states = newStates(recorder)
        writer.write(SettledRecords(lines: states, settling: recorder.traced(turn, with: &converter)))
        lastSequence = turn.info.id
    }

    /// A failure the test noted: handed over at once, so a test that crashes next still leaves it.
    func append(_ failure: TraceFailure) {
        guard !noticeFault() else { return }
        writer.write(SettledRecords(lines: [failure.jsonValue]))
    }

    /// Waits until everything handed over is written, and reports a fault that stopped it.
    func settle() {
        writer.drain()
        _ = noticeFault()
    }

    /// Writes the events since the last turn and the trailer, then closes the file.
    func finish(recorder: CogRecorder) {
        if !noticeFault() {
            var records = SettledRecords()
            if !recorder.idleEvents.isEmpty {
                records.lines += newStates(recorder)
                records.lines.append(
                    recorder.idleRecord(after: lastSequence, events: converter.convert(recorder.idleEvents)))
            }
            records.lines.append(
                TraceTrailer(
                    ok: true, turns: recorder.recordedTurnCount, evicted: 0, dropped: recorder.droppedEventCount,
                    keyframes: keyframes
                ).jsonValue)
            writer.write(records)
        }
        writer.close()
        _ = noticeFault()
    }

    /// The state records not handed over yet.
    private func newStates(_ recorder: CogRecorder) -> [JSONValue] {
        let order = recorder.stateOrder
        defer { writtenStateCount = order.count }
        return order[writtenStateCount...].map { recorder.stateRecord($0).jsonValue }
    }

    /// Whether streaming has stopped; reports the writer's fault the first time it is seen.
    private func noticeFault() -> Bool {
        if failure != nil { return true }
        guard let fault = writer.currentFault else { return false }
        failure = fault
        onFailure(fault)
        return true
    }
}
