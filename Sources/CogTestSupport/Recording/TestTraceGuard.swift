import CCogTraceGuard
import Cog
package import CogTrace
import CogTraceFormat
import Dispatch
import Foundation
import Synchronization

/// The process-wide side of recording tests that may never end. A test's trace lives in memory
/// while it runs, as it always has, so a passing test costs no file at all; the guard makes
/// sure an unfinished test still leaves it:
/// - a fatal signal (a trap, a fault, an abort) or a stop (SIGTERM, SIGINT): the C handler
///   (`CCogTraceGuard`) has the guard's rescue thread write every running test's trace from
///   memory, then appends a `crash` or `terminated` record to each;
/// - SIGKILL, which nothing can catch: a test running longer than `checkpointAfter` is written
///   to its file (a checkpoint: the trace so far, with no trailer) and again after each change,
///   so what a kill leaves reads back as a test the process died in;
/// - a stall: a test whose runtime waits on async work and makes no turn for `COG_TRACE_STALL`
///   seconds (60 by default) gets a `stall` mark naming the work, while it goes on.
nonisolated package final class TestTraceGuard: Sendable {
    /// The one guard: signals and the watchdog's timer are process-wide.
    package static let shared = TestTraceGuard(
        stallSeconds: TestTraceGuard.stallSeconds(from: ProcessInfo.processInfo.environment))

    /// How long a test runs before its trace is first written to disk.
    static let checkpointAfter: UInt64 = 1_000_000_000
    /// How often the watchdog looks.
    static let lookInterval = 0.25

    /// One recorder of a running test, as the watchdog follows it.
    private struct Watched {
        let capture: CogTraceCapture
        let recorder: CogRecorder
        let pendingWork: PendingWork
        let startedAt: UInt64
        var lastTurn = 0
        var lastTurnAt: UInt64
        /// The turn the file on disk was written at; nil before the first checkpoint.
        var checkpointedTurn: Int?
        var checkpointPending = false
        /// When the next checkpoint may be written: a big trace is written less often.
        var nextCheckpointAt: UInt64 = 0
        var stallMarked = false
    }

    private let stallSeconds: Double
    private let watched = Mutex<[ObjectIdentifier: Watched]>([:])
    private let timer = Mutex<DispatchSourceTimer?>(nil)
    private let queue = DispatchQueue(label: "CogTesting.trace-watchdog")

    package init(stallSeconds: Double) {
        self.stallSeconds = stallSeconds
    }

    /// `COG_TRACE_STALL` as seconds: a positive number, else 60 (a value that does not parse
    /// is said on standard error).
    package static func stallSeconds(from environment: [String: String]) -> Double {
        guard let text = environment["COG_TRACE_STALL"] else { return 60 }
        if let seconds = Double(text), seconds.isFinite, seconds > 0 { return seconds }
        RuntimeStandardError.write(
            "cog-trace: COG_TRACE_STALL='\(text)' is not a positive number of seconds; using 60\n")
        return 60
    }

    /// Follows `recorder` of `capture` until `forget(_:)`; installs the signal handlers and
    /// starts the watchdog the first time.
    @MainActor package func watch(_ recorder: CogRecorder, of capture: CogTraceCapture) {
        cog_trace_guard_set_rescue(rescueEveryTrace)
        cog_trace_guard_install()
        let now = DispatchTime.now().uptimeNanoseconds
        let entry = Watched(
            capture: capture, recorder: recorder, pendingWork: recorder.trackPendingWork(), startedAt: now,
            lastTurnAt: now)
        watched.withLock { $0[ObjectIdentifier(recorder)] = entry }
        startWatchdog()
    }

    /// Stops following `recorder` (its test ended).
    package func forget(_ recorder: CogRecorder) {
        _ = watched.withLock { $0.removeValue(forKey: ObjectIdentifier(recorder)) }
    }

    private func startWatchdog() {
        timer.withLock { timer in
            guard timer == nil else { return }
            let source = DispatchSource.makeTimerSource(queue: queue)
            let interval = min(Self.lookInterval, max(0.05, stallSeconds / 4))
            source.schedule(deadline: .now() + interval, repeating: interval)
            source.setEventHandler { [self] in look() }
            source.resume()
            timer = source
        }
    }

    /// Writes checkpoints that are due and marks stalls.
    package func look() {
        let now = DispatchTime.now().uptimeNanoseconds
        let quietLimit = UInt64(stallSeconds * 1_000_000_000)
        var checkpoints: [(CogTraceCapture, CogRecorder)] = []
        var stalls: [(CogTraceCapture, CogRecorder, String)] = []
        watched.withLock { watched in
            for key in Array(watched.keys) {
                guard var entry = watched[key] else { continue }
                let turn = entry.recorder.lastEndedTurnNow
                if turn != entry.lastTurn {
                    entry.lastTurn = turn
                    entry.lastTurnAt = now
                    entry.stallMarked = false
                }
                if !entry.stallMarked, Self.elapsed(from: entry.lastTurnAt, to: now) >= quietLimit {
                    let waiting = entry.pendingWork.generations
                    if !waiting.isEmpty {
                        entry.stallMarked = true
                        let quiet = Double(Self.elapsed(from: entry.lastTurnAt, to: now)) / 1_000_000_000
                        stalls.append(
                            (entry.capture, entry.recorder, Self.stallMessage(quietSeconds: quiet, waiting: waiting)))
                        entry.checkpointedTurn = nil
                    }
                }
                if !entry.checkpointPending, Self.elapsed(from: entry.startedAt, to: now) >= Self.checkpointAfter,
                    now >= entry.nextCheckpointAt, entry.checkpointedTurn != turn
                {
                    entry.checkpointPending = true
                    entry.checkpointedTurn = turn
                    checkpoints.append((entry.capture, entry.recorder))
                }
                watched[key] = entry
            }
        }
        for (capture, recorder, message) in stalls {
            RuntimeStandardError.write("cog-trace: '\(capture.testName)' \(message)\n")
            DispatchQueue.main.async { MainActor.assumeIsolated { capture.noteStall(message, in: recorder) } }
        }
        for (capture, recorder) in checkpoints {
            DispatchQueue.main.async { [self] in
                let started = DispatchTime.now().uptimeNanoseconds
                MainActor.assumeIsolated { capture.checkpoint(recorder) }
                let took = Self.elapsed(from: started, to: DispatchTime.now().uptimeNanoseconds)
                watched.withLock { watched in
                    // Writing a big trace again costs a tenth of the time since, at most.
                    watched[ObjectIdentifier(recorder)]?.checkpointPending = false
                    watched[ObjectIdentifier(recorder)]?.nextCheckpointAt =
                        started + max(Self.checkpointAfter, took * 10)
                }
            }
        }
    }

    /// Nanoseconds from `start` to `end`; 0 when `end` was read first (a test registered while
    /// the watchdog looked).
    static func elapsed(from start: UInt64, to end: UInt64) -> UInt64 { end > start ? end - start : 0 }

    /// On the rescue thread, while a signal handler waits: every running test's trace, written
    /// from memory to its file.
    func rescueAll() {
        let entries = watched.withLock { Array($0.values) }
        for entry in entries { entry.capture.checkpointFromRescue(entry.recorder) }
    }

    /// `stalled: no turn for 2.5 s while waiting on refresh.advice generation 1 (since turn 3)`.
    package static func stallMessage(quietSeconds: Double, waiting: [PendingWork.Generation]) -> String {
        let seconds = quietSeconds >= 10 ? String(Int(quietSeconds)) : String(format: "%.1f", quietSeconds)
        return "stalled: no turn for \(seconds) s while waiting on " + TracePendingGeneration.list(waiting)
    }
}

/// The rescue the C handler asks for.
private let rescueEveryTrace: cog_trace_guard_rescue_function = { _ in TestTraceGuard.shared.rescueAll() }
