import CogTestSupport
import Foundation

#if canImport(Testing)
    import Testing
#endif
#if canImport(XCTest)
    import XCTest
#endif

/// Recording a whole suite from the environment: with `COG_TRACE=failures` (or `always`) set,
/// every runtime a test makes with `Cogs.forTesting` records, in Swift Testing and XCTest
/// alike, with no trait, base class or change to the tests. Set up once as the test bundle
/// loads (`cog_testing_did_load`); without the variable nothing is installed.
nonisolated enum AmbientRecording {
    /// Whether `environment` asks for the whole suite: `COG_TRACE` set to a policy that records.
    static func isRequested(by environment: [String: String]) -> Bool {
        guard let text = environment["COG_TRACE"], let policy = CogTraceOptions.Policy(rawValue: text.lowercased())
        else { return false }
        return policy != .off
    }

    /// Installs the capture source and the XCTest observer.
    static func start(options: CogTraceOptions) {
        #if canImport(XCTest)
            let xctest = XCTestAmbient(options: options)
            XCTestObservationCenter.shared.addTestObserver(xctest)
        #endif
        AmbientCaptureSource.install {
            #if canImport(Testing)
                if let test = Test.current {
                    return SwiftTestingAmbient.shared.capture(for: test, options: options)
                }
            #endif
            #if canImport(XCTest)
                return xctest.captureForRunningTest()
            #else
                return nil
            #endif
        }
    }
}

/// Called by the C constructor in CCogTestingHooks as the test bundle loads.
@_cdecl("cog_testing_did_load")
nonisolated func cogTestingDidLoad() {
    let environment = ProcessInfo.processInfo.environment
    guard AmbientRecording.isRequested(by: environment) else { return }
    AmbientRecording.start(options: CogTraceOptions().overridden(by: environment))
}
