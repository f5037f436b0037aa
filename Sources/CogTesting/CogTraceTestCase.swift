#if canImport(XCTest)
    import CogTraceFormat
    import Foundation
    public import XCTest

    /// An XCTest base class that records the runtimes each test makes with `Cogs.forTesting` and
    /// writes their traces when the test does not succeed (a failed assertion or a thrown error).
    ///
    /// ```swift
    /// final class CheckoutTests: CogTraceTestCase {
    ///     func testTotal() { let cogs = Cogs.forTesting(); … }
    /// }
    /// ```
    ///
    /// Override `cogTraceOptions` to change capacity, redaction or policy; the environment
    /// (`COG_TRACE`, `COG_TRACE_DIR`, …) is laid over them.
    nonisolated open class CogTraceTestCase: XCTestCase {
        /// The options in code for every test of the class.
        open var cogTraceOptions: CogTraceOptions { CogTraceOptions() }

        override open func invokeTest() {
            // XCTest runs each test on the main thread, where the runtime and its recorders live, so
            // the capture is made and finished on the MainActor without a hop.
            let testName = name
            let options = cogTraceOptions.overridden()
            let capture = MainActor.assumeIsolated { CogTraceCapture(testName: testName, options: options) }
            CogTraceContext.$capture.withValue(capture) {
                super.invokeTest()
            }
            let failed = (testRun?.totalFailureCount ?? 0) > 0
            MainActor.assumeIsolated { _ = capture.finish(testFailed: failed) }
        }

        /// Notes each failure in the test's traces, after the turn that ended last, then lets
        /// XCTest record it as usual.
        override open func recordFailure(
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
        ) {
            if let capture = CogTraceCapture.current {
                let file = (filePath as NSString).lastPathComponent
                MainActor.assumeIsolated {
                    capture.noteFailure(
                        kind: expected ? .expectation : .error, message: description, file: file, line: lineNumber)
                }
            }
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }
#endif
