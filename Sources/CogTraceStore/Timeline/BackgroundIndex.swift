import CogTraceFormat
import Dispatch
import Synchronization

/// The event index of a trace, built on another thread while the person at the prompt reads the
/// banner and types: on a million-turn trace the first `history` then finds it ready instead of
/// spending a second or two building it.
///
/// The build reads only the trace's bytes and turn positions, which nothing changes while it runs
/// (a followed trace grows only after `settleBackgroundIndex()` waited for the build), and calls
/// none of the trace's hooks (`TraceEventIndex(trace:reportsProgress: false)`); the index it makes is
/// handed over once, through the mutex, and from then on only the session's thread touches it.
package final class BackgroundIndex: Sendable {
    private let built = Mutex<Handover?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    /// The finished index, passed from the building thread to the session's.
    ///
    /// Sendable by hand: the building thread writes it once and never touches it again, and the
    /// session's thread reads it only after the semaphore says the build is over.
    private struct Handover: @unchecked Sendable {
        let index: TraceEventIndex?
    }

    /// The trace, lent to the building thread.
    ///
    /// Sendable by hand: that thread reads only `bytes` and `turnEntries`, and the session's
    /// thread changes them (`TraceFile.append`, when following) only after waiting for the build
    /// to finish; the building thread touches nothing else of the trace.
    private struct Lent: @unchecked Sendable {
        let trace: TraceFile
    }

    /// Starts building `trace`'s index at utility priority.
    package init(trace: TraceFile) {
        let lent = Lent(trace: trace)
        DispatchQueue.global(qos: .utility).async { [self] in
            let index = TraceEventIndex(trace: lent.trace, reportsProgress: false)
            built.withLock { $0 = Handover(index: index) }
            finished.signal()
        }
    }

    /// Whether the build is over.
    package var isFinished: Bool { built.withLock { $0 != nil } }

    /// Waits for the build, then the index.
    package func wait() -> TraceEventIndex? {
        finished.wait()
        finished.signal()
        return built.withLock { $0?.index }
    }
}
