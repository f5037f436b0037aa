import Foundation

/// Where `Cogs.forTesting` finds a capture when no trait or base class set one up: the test
/// framework hooks in CogTesting install a source as the test bundle loads, when `COG_TRACE`
/// asks for a whole suite to be recorded. With no source installed the look-up is one lock and
/// a nil check.
nonisolated package enum AmbientCaptureSource {
    /// Makes or finds the capture of the test running now, or nil outside a test. Called on the
    /// MainActor, where `Cogs.forTesting` runs.
    package typealias Source = @MainActor @Sendable () -> CogTraceCapture?

    private static let installed = Locked<Source?>(nil)

    /// Installs `source`; the first installation wins.
    package static func install(_ source: @escaping Source) {
        installed.withLock { current in
            if current == nil { current = source }
        }
    }

    /// The capture the installed source gives for the test running now.
    @MainActor package static func captureForCurrentTest() -> CogTraceCapture? {
        guard let source = installed.withLock({ $0 }) else { return nil }
        return source()
    }
}
