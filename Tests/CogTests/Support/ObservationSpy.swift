import Observation

/// Counts how often Observation reports a change to what `read` tracked, re-arming each time like
/// a SwiftUI body that re-renders.
final class ObservationSpy {
    private(set) var changes = 0
    private let read: () -> Void

    init(_ read: @escaping () -> Void) {
        self.read = read
        arm()
    }

    private func arm() {
        withObservationTracking(read) { [weak self] in
            MainActor.assumeIsolated { self?.changed() }
        }
    }

    private func changed() {
        changes += 1
        arm()
    }
}
