#if canImport(Testing)
    import CogTraceFormat
    import Foundation
    public import Testing

    /// A Swift Testing trait that records the runtimes a test makes with `Cogs.forTesting` and
    /// writes their traces when the test fails: an expectation that failed, an issue recorded, or an
    /// error thrown out of the test. A passing test, or one whose only issues are known ones, leaves
    /// nothing. On a suite it applies to every test inside.
    ///
    /// ```swift
    /// @Test(.cogTrace) func theAlertFiresOnce() async { … }
    /// @Suite(.cogTrace(CogTraceOptions(capacity: 500, redactedLabels: ["auth.*"]))) struct CheckoutTests { … }
    /// ```
    ///
    /// Traces go to `$COG_TRACE_DIR` (default `.build/cog-traces/`), named after the test, and are
    /// also attached to the test's results. `COG_TRACE=always` or `off` changes when they are written.
    nonisolated public struct CogTraceTrait: TestTrait, SuiteTrait, TestScoping {
        /// The options in code; the environment is laid over them when a test starts.
        public let options: CogTraceOptions

        /// Waits until a test with time limit `limit` has run past it: true then, false when the
        /// test ended first (the wait is cancelled). Only the trait's own tests replace it.
        package typealias LimitWait = @Sendable (_ limit: Duration) async -> Bool

        private let waitPastLimit: LimitWait
        /// Where the capture's messages go (standard error, but for the trait's own tests).
        private let report: @Sendable (String) -> Void

        /// A trait recording with `options`.
        public init(options: CogTraceOptions = CogTraceOptions()) {
            self.init(
                options: options, waitPastLimit: { limit in (try? await Task.sleep(for: limit)) != nil },
                report: CogTraceCapture.printToStandardError)
        }

        /// A trait that decides a test ran past its limit when `waitPastLimit` says so, and gives
        /// its messages to `report`.
        package init(
            options: CogTraceOptions, waitPastLimit: @escaping LimitWait, report: @escaping @Sendable (String) -> Void
        ) {
            self.options = options
            self.waitPastLimit = waitPastLimit
            self.report = report
        }

        public var isRecursive: Bool { true }

        @concurrent public func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable @concurrent () async throws -> Void
        ) async throws {
            guard testCase != nil else { return try await function() }
            let name = test.id.nameComponents.map { $0.hasSuffix("()") ? String($0.dropLast(2)) : $0 }.joined(
                separator: ".")
            let capture = await CogTraceCapture(testName: name, options: options.overridden(), report: report)
            let failed = Locked(false)
            let observer = IssueHandlingTrait.compactMapIssues { issue in
                if issue.isFailure {
                    failed.withLock { $0 = true }
                    let note = FailureNote(issue)
                    // Where each trace stands now, read where the issue is recorded (which need not
                    // be the main actor); the record itself is written on the main actor.
                    let positions = capture.turnsEndedNow()
                    Task { @MainActor in note.record(in: capture, after: positions) }
                }
                return issue
            }
            // At its time limit the runner records a failure and cancels the test, then waits for
            // it to end; a test stuck where cancellation cannot reach (a continuation never
            // resumed, a blocked thread) would never end, so its traces are written at the limit.
            let watchdog = test.timeLimit.map { limit in
                Task { [self] in
                    guard await waitPastLimit(limit), !Task.isCancelled else { return }
                    let reason = "ran past its time limit of \(limit)"
                    await MainActor.run { capture.noteFailure(kind: .timeLimit, message: "the test \(reason)") }
                    await conclude(capture, failed: true, reason: reason)
                }
            }
            do {
                try await CogTraceContext.$capture.withValue(capture) {
                    try await observer.provideScope(for: test, testCase: testCase, performing: function)
                }
            } catch {
                watchdog?.cancel()
                // The runner records a thrown error as an issue outside this scope, where the
                // observer cannot see it, so the failure is noted here.
                let message = "Caught error: \(error)"
                await MainActor.run { capture.noteFailure(kind: .error, message: message) }
                await conclude(capture, failed: true)
                throw error
            }
            watchdog?.cancel()
            await conclude(capture, failed: failed.withLock { $0 })
        }

        @MainActor
        private func conclude(_ capture: CogTraceCapture, failed: Bool, reason: String? = nil) {
            let files = capture.finish(testFailed: failed, reason: reason)
            guard !files.isEmpty else { return }
            for trace in capture.traces { Attachment.record(trace.bytes, named: trace.name) }
        }
    }

    /// What a failure issue says, taken from the issue where it is recorded.
    nonisolated struct FailureNote: Sendable {
        let kind: TraceFailure.Kind
        let message: String
        let file: String?
        let line: Int?

        init(_ issue: Issue) {
            switch issue.kind {
            case .expectationFailed: kind = .expectation
            case .errorCaught: kind = .error
            case .timeLimitExceeded: kind = .timeLimit
            default: kind = .issue
            }
            let comments = issue.comments.map(\.rawValue)
            message = ([String(describing: issue.kind)] + comments).joined(separator: ": ")
            file = issue.sourceLocation?.fileID
            line = issue.sourceLocation?.line
        }

        @MainActor func record(in capture: CogTraceCapture, after positions: [Int]) {
            capture.noteFailure(kind: kind, message: message, file: file, line: line, after: positions)
        }
    }

    nonisolated extension Trait where Self == CogTraceTrait {
        /// Records the test's runtimes and writes their traces when it fails.
        public static var cogTrace: CogTraceTrait { CogTraceTrait() }

        /// Records the test's runtimes with `options` and writes their traces when it fails.
        public static func cogTrace(_ options: CogTraceOptions) -> CogTraceTrait { CogTraceTrait(options: options) }
    }
#endif
