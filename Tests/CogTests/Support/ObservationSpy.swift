import Observation

/// Plays a SwiftUI body: `read` runs under `withObservationTracking`; a change marks it invalid
/// and counts one render, and the body re-runs (re-arming tracking) when the test next looks, as a
/// view re-renders once after a burst of changes.
final class ObservationSpy {
    private var renders = 0
    private var isInvalid = false
    private let read: () -> Void

    init(_ read: @escaping () -> Void) {
        self.read = read
        arm()
    }

    /// How many times the body was invalidated so far; re-renders it if it is invalid.
    var changes: Int {
        if isInvalid {
            isInvalid = false
            arm()
        }
        return renders
    }

    private func arm() {
        withObservationTracking(read) { [weak self] in
            MainActor.assumeIsolated { self?.invalidate() }
        }
    }

    private func invalidate() {
        renders += 1
        isInvalid = true
    }
}
