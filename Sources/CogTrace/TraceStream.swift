import Cog
import Foundation

/// A trace file being appended to as turns end. Each turn is one write, so a crash loses at most
/// the turn in flight. A write that fails (a full disk, a file removed or replaced under it) is
/// reported once and streaming stops, while the app and the in-memory ring carry on; what was
/// written still opens, with a warning that it is incomplete.
@MainActor
final class TraceStream {
    private let descriptor: Int32
    private let path: String
    /// The file's identity when opened, to notice it being removed or replaced.
    private let device: UInt64
    private let inode: UInt64
    private let onFailure: (RecorderFault) -> Void
    /// How many of the recorder's states (in first-seen order) are already in the file.
    private var writtenStateCount = 0
    private var converter: TraceConverter
    private var keyframes = 0
    private var lastSequence = 0
    private var failure: RecorderFault?
    private var lines = TraceLines()

    /// Opens (creating or truncating) the file at `url`.
    /// - Throws: `RecorderFault` when it cannot be opened, naming the path and the system's reason.
    init(url: URL, recorder: CogRecorder, onFailure: @escaping (RecorderFault) -> Void) throws(RecorderFault) {
        path = url.path
        self.onFailure = onFailure
        descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw RecorderFault(path: url.path, reason: String(cString: strerror(errno))) }
        var status = stat()
        fstat(descriptor, &status)
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        converter = TraceConverter(from: recorder.currentSnapshot(), recorder: recorder)
        lastSequence = recorder.orderedRing.last?.info.id ?? 0
        lines.append(recorder.header(mode: "stream").jsonValue)
        writeNewStates(recorder)
        lines.append(converter.snapshot.keyframeJSONValue(before: lastSequence + 1))
        keyframes = 1
        flush()
    }

    /// Before turn `sequence`: what happened since the last turn, and a keyframe when one is due.
    func willBeginTurn(_ sequence: Int, idle: EventRange, recorder: CogRecorder) {
        guard failure == nil else { return }
        if !idle.isEmpty {
            writeNewStates(recorder)
            lines.append(recorder.idleRecord(after: lastSequence, events: converter.convert(idle)))
        }
        if sequence > 1, (sequence - 1) % recorder.configuration.keyframeInterval == 0 {
            lines.append(converter.snapshot.keyframeJSONValue(before: sequence))
            keyframes += 1
        }
        if !lines.isEmpty { flush() }
    }

    /// A turn ended: its new states, then its record.
    func append(_ turn: RecordedTurn, recorder: CogRecorder) {
        guard failure == nil else { return }
        writeNewStates(recorder)
        lines.append(recorder.traced(turn, with: &converter).jsonValue)
        lastSequence = turn.info.id
        flush()
    }

    /// A failure the test noted: written at once, so a test that crashes next still leaves it.
    func append(_ failure: TraceFailure) {
        guard self.failure == nil else { return }
        lines.append(failure.jsonValue)
        flush()
    }

    /// Writes the events since the last turn and the trailer, then closes the file.
    func finish(recorder: CogRecorder) {
        if failure == nil {
            if !recorder.idleEvents.isEmpty {
                writeNewStates(recorder)
                lines.append(recorder.idleRecord(after: lastSequence, events: converter.convert(recorder.idleEvents)))
            }
            lines.append(
                TraceTrailer(
                    ok: true, turns: recorder.recordedTurnCount, evicted: 0, dropped: recorder.droppedEventCount,
                    keyframes: keyframes
                ).jsonValue)
            flush()
        }
        close(descriptor)
    }

    private func writeNewStates(_ recorder: CogRecorder) {
        let order = recorder.stateOrder
        while writtenStateCount < order.count {
            lines.append(recorder.stateRecord(order[writtenStateCount]).jsonValue)
            writtenStateCount += 1
        }
    }

    private func flush() {
        defer { lines.removeAll() }
        guard failure == nil else { return }
        if let reason = writeAll(lines.bytes) ?? replacedReason() {
            let fault = RecorderFault(path: path, reason: reason)
            failure = fault
            onFailure(fault)
        }
    }

    /// Writes every byte, retrying short writes; the system's reason when it cannot.
    private func writeAll(_ bytes: [UInt8]) -> String? {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return String(cString: strerror(count < 0 ? errno : EIO)) }
            written += count
        }
        return nil
    }

    /// Why the path no longer names the file being written, if it does not: writes to a removed
    /// file succeed and vanish, so streaming stops rather than pretend.
    private func replacedReason() -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return "the file was removed while streaming" }
        guard UInt64(status.st_dev) == device, UInt64(status.st_ino) == inode else {
            return "the file was replaced while streaming"
        }
        return nil
    }
}
