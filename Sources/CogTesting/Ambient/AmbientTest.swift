import CogTestSupport
import CogTraceFormat

/// One test recorded because `COG_TRACE` asked for the whole suite: its capture, and the
/// failures the runner reported for it. A runner may report a failure on any thread; the
/// failure is kept here with where each trace stood at that moment, and written into the
/// traces on the MainActor before they are written out.
nonisolated final class AmbientTest: Sendable {
    /// A failure the runner reported, not yet noted in the traces.
    struct PendingFailure: Sendable {
        let kind: TraceFailure.Kind
        var message: String
        let file: String?
        let line: Int?
        let positions: [Int]
    }

    let capture: CogTraceCapture
    private let pending = Locked<[PendingFailure]>([])
    private let failureCount = Locked(0)

    init(capture: CogTraceCapture) {
        self.capture = capture
    }

    /// Keeps a failure the runner reported, with where the test's traces stand now.
    func noteFailure(kind: TraceFailure.Kind, message: String, file: String?, line: Int?) {
        let positions = capture.turnsEndedNow()
        pending.withLock {
            $0.append(PendingFailure(kind: kind, message: message, file: file, line: line, positions: positions))
        }
        failureCount.withLock { $0 += 1 }
    }

    /// Adds a line the runner printed under the last failure (an expectation's comment).
    /// Returns false when that failure is already in the traces.
    func appendToLastFailure(_ text: String) -> Bool {
        pending.withLock { failures in
            guard !failures.isEmpty else { return false }
            failures[failures.count - 1].message += ": " + text
            return true
        }
    }

    /// How many failures the runner reported for this test.
    var reportedFailures: Int { failureCount.withLock { $0 } }

    /// Writes the kept failures into the traces.
    @MainActor func recordPendingFailures() {
        for failure in pending.withLock({ failures in
            defer { failures.removeAll() }
            return failures
        }) {
            capture.noteFailure(
                kind: failure.kind, message: failure.message, file: failure.file, line: failure.line,
                after: failure.positions)
        }
    }

    /// Ends the test: its failures go into the traces, which are written if the policy says so.
    @MainActor func finish(failed: Bool, reason: String? = nil) {
        recordPendingFailures()
        capture.finish(testFailed: failed, reason: reason)
    }
}
