import Cog
import Foundation

/// A trace file being appended to as turns end. Each turn is one write, so a crash loses at most
/// the turn in flight; a write that fails is reported once and streaming stops, while the app and
/// the in-memory ring carry on.
final class TraceStream {
    private let handle: FileHandle
    private let path: String
    /// How many of the recorder's states (in first-seen order) are already in the file.
    private var writtenStateCount = 0
    private var converter: TraceConverter
    private var keyframes = 0
    private var lastSequence = 0
    private var failure: (any Error)?
    private var lines = TraceLines()

    init(url: URL, recorder: CogRecorder) throws {
        path = url.path
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
        handle = try FileHandle(forWritingTo: url)
        converter = TraceConverter(from: recorder.currentSnapshot(), recorder: recorder)
        lastSequence = recorder.orderedRing.last?.info.id ?? 0
        lines.append(recorder.header(mode: "stream").jsonValue)
        writeNewStates(recorder)
        lines.append(converter.snapshot.keyframeJSONValue(before: lastSequence + 1))
        keyframes = 1
        flush()
    }

    /// Before turn `sequence`: what happened since the last turn, and a keyframe when one is due.
    func willBeginTurn(_ sequence: Int, idle: EventBuffer, recorder: CogRecorder) {
        guard failure == nil else { return }
        if !idle.isEmpty {
            writeNewStates(recorder)
            lines.append(recorder.idleRecord(after: lastSequence, events: converter.convert(idle)))
        }
        if sequence > 1, (sequence - 1) % recorder.configuration.keyframeInterval == 0 {
            lines.append(converter.snapshot.keyframeJSONValue(before: sequence))
            keyframes += 1
        }
        if !lines.text.isEmpty { flush() }
    }

    /// A turn ended: its new states, then its record.
    func append(_ turn: RecordedTurn, recorder: CogRecorder) {
        guard failure == nil else { return }
        writeNewStates(recorder)
        lines.append(recorder.traced(turn, with: &converter).jsonValue)
        lastSequence = turn.info.id
        flush()
    }

    /// Writes the events since the last turn and the trailer, then closes the file.
    func finish(recorder: CogRecorder) {
        if failure == nil {
            if !recorder.idleEvents.isEmpty {
                writeNewStates(recorder)
                lines.append(recorder.idleRecord(after: lastSequence, events: converter.convert(recorder.idleEvents)))
            }
            lines.append(TraceTrailer(
                ok: true, turns: recorder.recordedTurnCount, evicted: 0, dropped: recorder.droppedEventCount,
                keyframes: keyframes).jsonValue)
            flush()
        }
        try? handle.close()
    }

    private func writeNewStates(_ recorder: CogRecorder) {
        let order = recorder.stateOrder
        while writtenStateCount < order.count {
            lines.append(recorder.stateRecord(order[writtenStateCount]).jsonValue)
            writtenStateCount += 1
        }
    }

    private func flush() {
        do {
            try handle.write(contentsOf: Data(lines.text.utf8))
        } catch {
            failure = error
            FileHandle.standardError.write(Data(
                "CogTrace: streaming to '\(path)' failed and stopped: \(error.localizedDescription)\n".utf8))
        }
        lines.removeAll()
    }
}
