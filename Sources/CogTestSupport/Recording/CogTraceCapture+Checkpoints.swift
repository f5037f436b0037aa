import CCogTraceGuard
import Cog
import CogTrace
import CogTraceFormat
import Foundation

/// A running test's trace as last written to disk, and the guard's slot that lets a signal
/// handler append how the test ended.
struct TraceCheckpoint {
    let file: URL
    /// Open for appending, as the guard's slot has it.
    let descriptor: Int32
    let slot: Int32

    /// Forgets the slot and closes the descriptor.
    func close() {
        if slot >= 0 { cog_trace_guard_unregister(slot) }
        if descriptor >= 0 { Foundation.close(descriptor) }
    }
}

extension CogTraceCapture {
    /// Writes `recorder`'s trace so far to this test's file (created the first time): the
    /// history with a stream's header and no trailer, which a later signal's record ends, or
    /// which reads as a test the process died in if nothing more is written.
    func checkpoint(_ recorder: CogRecorder) {
        guard !isFinished else { return }
        let key = ObjectIdentifier(recorder)
        let previous = checkpoints[key]
        let directory = URL(fileURLWithPath: options.directory, isDirectory: true)
        do {
            let bytes = Array(recorder.checkpointText().utf8)
            let file: URL
            if let previous {
                file = previous.file
                try TraceFileName.replace(file, with: bytes)
            } else {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                file = try TraceFileName.write(bytes, in: directory, for: testName)
            }
            previous?.close()
            let descriptor = open(file.path, O_RDWR | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
            let slot = descriptor < 0 ? -1 : registerWithGuard(descriptor, test: testName)
            if slot >= 0 { cog_trace_guard_turn_ended(slot, recorder.lastEndedTurnNow) }
            checkpoints[key] = TraceCheckpoint(file: file, descriptor: descriptor, slot: slot)
        } catch {
            Self.reportUnwritableOnce(directory: options.directory, reason: Self.reason(from: error), report: report)
        }
    }

    /// The same, from the guard's rescue thread while a signal handler waits. The recorder
    /// belongs to the main actor; the rescue reads it from another thread, which is sound while
    /// the main thread is the one stopped in the handler (a trap in the test's code, a stop
    /// delivered there) or idle (a test awaiting work that never comes), and a race otherwise:
    /// the handler waits at most three seconds, so a rescue that fails costs the trace only.
    nonisolated func checkpointFromRescue(_ recorder: CogRecorder) {
        callIgnoringIsolation { self.checkpoint(recorder) }
    }

    /// Notes a stall the guard's watchdog found, and writes the trace with it.
    func noteStall(_ message: String, in recorder: CogRecorder) {
        guard !isFinished else { return }
        recorder.noteFailure(test: testName, kind: .stall, message: message)
        checkpoint(recorder)
    }
}

/// Registers a checkpoint's descriptor with the guard. Nonisolated, so that the rescue thread
/// runs no closure of the main actor's (such a closure checks where it runs, and traps there).
nonisolated private func registerWithGuard(_ descriptor: Int32, test: String) -> Int32 {
    JSONValue.string(test).jsonText.withCString { cog_trace_guard_register(descriptor, $0) }
}

/// Calls `body`, isolated to the main actor, from whatever thread this is, without hopping:
/// only for the rescue above, whose comment says when that is sound.
nonisolated private func callIgnoringIsolation(_ body: @MainActor () -> Void) {
    withoutActuallyEscaping(body) { body in
        unsafeBitCast(body, to: (() -> Void).self)()
    }
}
