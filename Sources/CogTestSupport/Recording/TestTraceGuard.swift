import CCogTraceGuard
import Cog
package import CogTrace
import CogTraceFormat
import Dispatch
import Foundation
import Synchronization

/// The process-wide side of crash-safe test recording: every test trace being streamed is
/// registered with the C guard (`CCogTraceGuard`), whose signal handler closes it with a
/// `crash` or `terminated` record, and with a watchdog that marks a test `stall` when its runtime
/// waits on async work and makes no turn for `COG_TRACE_STALL` seconds (60 by default). Both are
/// installed by the first test trace streamed.
nonisolated package final class TestTraceGuard: Sendable {
    /// The one guard: signals and the watchdog's timer are process-wide.
    package static let shared = TestTraceGuard(
        stallSeconds: TestTraceGuard.stallSeconds(from: ProcessInfo.processInfo.environment))

    /// One streamed trace the guard watches.
    package final class Entry: Sendable {
        let slot: Int32
        let test: String
        let pendingWork: PendingWork
        /// When the trace last got a turn, in nanoseconds of uptime.
        let lastTurnAt = Atomic<UInt64>(DispatchTime.now().uptimeNanoseconds)
        /// Whether the quiet stretch under way is already marked as stalled.
        let stallMarked = Atomic<Bool>(false)

        init(slot: Int32, test: String, pendingWork: PendingWork) {
            self.slot = slot
            self.test = test
            self.pendingWork = pendingWork
        }

        /// A turn ended and is written: the guard's record and the watchdog start from it.
        func turnWritten(_ turn: Int) {
            cog_trace_guard_turn_ended(slot, turn)
            lastTurnAt.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
            stallMarked.store(false, ordering: .relaxed)
        }
    }

    private let stallSeconds: Double
    private let entries = Mutex<[Int32: Entry]>([:])
    private let timer = Mutex<DispatchSourceTimer?>(nil)
    private let queue = DispatchQueue(label: "CogTesting.stall-watchdog")

    package init(stallSeconds: Double) {
        self.stallSeconds = stallSeconds
    }

    /// `COG_TRACE_STALL` as seconds: a positive number, else 60 (a value that does not parse
    /// is said once on standard error).
    package static func stallSeconds(from environment: [String: String]) -> Double {
        guard let text = environment["COG_TRACE_STALL"] else { return 60 }
        if let seconds = Double(text), seconds.isFinite, seconds > 0 { return seconds }
        RuntimeStandardError.write("cog-trace: COG_TRACE_STALL='\(text)' is not a positive number of seconds; using 60\n")
        return 60
    }

    /// Registers the open trace `descriptor` of `test`; nil when the guard has no slot free.
    package func register(descriptor: Int32, test: String, pendingWork: PendingWork) -> Entry? {
        cog_trace_guard_install()
        let name = JSONValue.string(test).jsonText
        let slot = name.withCString { cog_trace_guard_register(descriptor, $0) }
        guard slot >= 0 else { return nil }
        let entry = Entry(slot: slot, test: test, pendingWork: pendingWork)
        entries.withLock { $0[slot] = entry }
        startWatchdog()
        return entry
    }

    /// Forgets `entry` before its file is closed.
    package func unregister(_ entry: Entry) {
        entries.withLock { $0[entry.slot] = nil }
        cog_trace_guard_unregister(entry.slot)
    }

    private func startWatchdog() {
        timer.withLock { timer in
            guard timer == nil else { return }
            let source = DispatchSource.makeTimerSource(queue: queue)
            let interval = min(1, max(0.05, stallSeconds / 4))
            source.schedule(deadline: .now() + interval, repeating: interval)
            source.setEventHandler { [self] in lookForStalls() }
            source.resume()
            timer = source
        }
    }

    /// Marks every test whose runtime waits on work and has made no turn for `stallSeconds`.
    package func lookForStalls() {
        let now = DispatchTime.now().uptimeNanoseconds
        let quietLimit = UInt64(stallSeconds * 1_000_000_000)
        for entry in entries.withLock({ Array($0.values) }) {
            let last = entry.lastTurnAt.load(ordering: .relaxed)
            guard now > last, now - last >= quietLimit, !entry.stallMarked.load(ordering: .relaxed) else { continue }
            let waiting = entry.pendingWork.generations
            guard !waiting.isEmpty else { continue }
            entry.stallMarked.store(true, ordering: .relaxed)
            let quiet = Double(now - last) / 1_000_000_000
            let record = Self.stallRecord(
                test: entry.test, after: cog_trace_guard_last_turn(entry.slot), quietSeconds: quiet, waiting: waiting)
            let line = "\n" + record.jsonText + "\n"
            _ = line.withCString { cog_trace_guard_append(entry.slot, $0, strlen($0)) }
            RuntimeStandardError.write("cog-trace: '\(entry.test)' \(Self.stallMessage(quietSeconds: quiet, waiting: waiting))\n")
        }
    }

    /// `stalled: no turn for 2 s while waiting on refresh.advice generation 1 (since turn 3)`.
    package static func stallMessage(quietSeconds: Double, waiting: [PendingWork.Generation]) -> String {
        let seconds = quietSeconds >= 10 ? String(Int(quietSeconds)) : String(format: "%.1f", quietSeconds)
        let what = waiting.map { "\($0.label) generation \($0.generation) (since turn \($0.since))" }
        return "stalled: no turn for \(seconds) s while waiting on " + what.joined(separator: ", ")
    }

    /// The `failure` record of kind `stall`, with the work waited on in `waiting`.
    static func stallRecord(test: String, after: Int, quietSeconds: Double, waiting: [PendingWork.Generation])
        -> JSONValue
    {
        let failure = TraceFailure(
            after: TurnNumber(after), test: test, kind: .stall,
            message: stallMessage(quietSeconds: quietSeconds, waiting: waiting), file: nil, line: nil)
        guard case .object(var members) = failure.jsonValue else { return failure.jsonValue }
        members.append(
            (
                "waiting",
                .array(
                    waiting.map {
                        .object([
                            ("state", .string($0.label)), ("generation", .int($0.generation)), ("since", .int($0.since)),
                        ])
                    })
            ))
        return .object(members)
    }
}
