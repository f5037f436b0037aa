import Observation

/// The Observation boundary of one state: a registrar that UI readers subscribe to through
/// `withObservationTracking` (or SwiftUI) and that the flush notifies once per changed turn.
final class Boundary: Observable {
    private let registrar = ObservationRegistrar()
    /// The state version readers were last told about; equal writes leave it alone.
    var notifiedVersion: Int

    /// The property readers track; its value is irrelevant, only access and mutation matter.
    var revision: Int { 0 }

    init(notifiedVersion: Int) {
        self.notifiedVersion = notifiedVersion
    }

    func access() {
        registrar.access(self, keyPath: \.revision)
    }

    func notifyChange() {
        registrar.withMutation(of: self, keyPath: \.revision) {}
    }
}
