#if canImport(Testing)
    import Testing

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

        /// A trait recording with `options`.
        public init(options: CogTraceOptions = CogTraceOptions()) {
            self.options = options
        }

        public var isRecursive: Bool { true }

        @concurrent public func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable @concurrent () async throws -> Void
        ) async throws {
            guard testCase != nil else { return try await function() }
            let name = test.id.nameComponents.map { $0.hasSuffix("()") ? String($0.dropLast(2)) : $0 }.joined(
                separator: ".")
            let capture = await CogTraceCapture(testName: name, options: options.overridden())
            let failed = Locked(false)
            let observer = IssueHandlingTrait.compactMapIssues { issue in
                if issue.isFailure { failed.withLock { $0 = true } }
                return issue
            }
            do {
                try await CogTraceContext.$capture.withValue(capture) {
                    try await observer.provideScope(for: test, testCase: testCase, performing: function)
                }
            } catch {
                await conclude(capture, failed: true)
                throw error
            }
            await conclude(capture, failed: failed.withLock { $0 })
        }

        @MainActor
        private func conclude(_ capture: CogTraceCapture, failed: Bool) {
            let files = capture.finish(testFailed: failed)
            guard !files.isEmpty else { return }
            for trace in capture.traces { Attachment.record(trace.bytes, named: trace.name) }
        }
    }

    nonisolated extension Trait where Self == CogTraceTrait {
        /// Records the test's runtimes and writes their traces when it fails.
        public static var cogTrace: CogTraceTrait { CogTraceTrait() }

        /// Records the test's runtimes with `options` and writes their traces when it fails.
        public static func cogTrace(_ options: CogTraceOptions) -> CogTraceTrait { CogTraceTrait(options: options) }
    }
#endif
