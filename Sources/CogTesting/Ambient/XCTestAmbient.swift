#if canImport(XCTest)
    import CogTestSupport
    import CogTraceFormat
    import Foundation
    import XCTest

    /// The XCTest tests recorded because `COG_TRACE` asked for the whole suite: an observer of
    /// the runner, registered as the test bundle loads, that knows which test runs, hears its
    /// failures and ends it. XCTest runs one test at a time, on the main thread.
    nonisolated final class XCTestAmbient: NSObject, XCTestObservation, Sendable {
        private struct Running {
            let name: String
            var test: AmbientTest?
        }

        private let options: CogTraceOptions
        private let running = Locked<Running?>(nil)

        init(options: CogTraceOptions) {
            self.options = options
        }

        /// The capture of the XCTest test running now, made when it first asks; nil when no
        /// XCTest test runs.
        @MainActor func captureForRunningTest() -> CogTraceCapture? {
            running.withLock { running -> CogTraceCapture? in
                guard var current = running else { return nil }
                if let test = current.test { return test.capture }
                let test = AmbientTest(capture: CogTraceCapture(testName: current.name, options: options))
                current.test = test
                running = current
                return test.capture
            }
        }

        func testCaseWillStart(_ testCase: XCTestCase) {
            let name = testCase.name
            running.withLock { $0 = Running(name: name) }
        }

        func testCase(
            _ testCase: XCTestCase, didFailWithDescription description: String, inFile filePath: String?,
            atLine lineNumber: Int
        ) {
            guard let test = running.withLock({ $0?.test }) else { return }
            let file = filePath.map { ($0 as NSString).lastPathComponent }
            test.noteFailure(kind: .expectation, message: description, file: file, line: lineNumber)
        }

        func testCaseDidFinish(_ testCase: XCTestCase) {
            let ended = running.withLock { running in
                defer { running = nil }
                return running?.test
            }
            guard let ended else { return }
            let failed = !(testCase.testRun?.hasSucceeded ?? false)
            if Thread.isMainThread {
                MainActor.assumeIsolated { ended.finish(failed: failed) }
            } else {
                DispatchQueue.main.sync { ended.finish(failed: failed) }
            }
        }
    }
#endif
