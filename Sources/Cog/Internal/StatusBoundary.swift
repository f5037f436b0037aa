import Observation

/// The fields of an async status as numbers that change when the field does, so a boundary can
/// tell which fields to notify without comparing values.
struct StatusFingerprint: Equatable {
    var kind: CogStatus<Void>.Kind
    var hasSucceeded: Bool
    var isLoading: Bool
    /// The async state's value version: bumped only when equality says the value changed.
    var valueVersion: Int
    /// Bumped whenever the current error is set or cleared.
    var errorVersion: Int
}

/// The Observation boundary of one async state's status lens: each field has its own key path,
/// so a UI that reads only `isLoading` is not invalidated by a new value.
final class StatusBoundary: Observable {
    /// The status fields a UI can track separately.
    enum Field {
        case kind, value, hasSucceeded, error, isLoading
    }

    private let registrar = ObservationRegistrar()
    private var notified: StatusFingerprint

    var kind: Int { 0 }
    var value: Int { 0 }
    var hasSucceeded: Int { 0 }
    var error: Int { 0 }
    var isLoading: Int { 0 }

    init(notified: StatusFingerprint) {
        self.notified = notified
    }

    func access(_ field: Field) {
        switch field {
        case .kind: registrar.access(self, keyPath: \.kind)
        case .value: registrar.access(self, keyPath: \.value)
        case .hasSucceeded: registrar.access(self, keyPath: \.hasSucceeded)
        case .error: registrar.access(self, keyPath: \.error)
        case .isLoading: registrar.access(self, keyPath: \.isLoading)
        }
    }

    /// The state behind this boundary was released: every reader re-reads (and recreates it).
    func notifyReleased() {
        registrar.withMutation(of: self, keyPath: \.kind) {}
        registrar.withMutation(of: self, keyPath: \.value) {}
        registrar.withMutation(of: self, keyPath: \.hasSucceeded) {}
        registrar.withMutation(of: self, keyPath: \.error) {}
        registrar.withMutation(of: self, keyPath: \.isLoading) {}
    }

    /// Notifies each field that differs from what readers were last told; returns whether any did.
    func notifyChanges(to current: StatusFingerprint) -> Bool {
        let previous = notified
        guard previous != current else { return false }
        notified = current
        if previous.kind != current.kind { registrar.withMutation(of: self, keyPath: \.kind) {} }
        if previous.valueVersion != current.valueVersion { registrar.withMutation(of: self, keyPath: \.value) {} }
        if previous.hasSucceeded != current.hasSucceeded {
            registrar.withMutation(of: self, keyPath: \.hasSucceeded) {}
        }
        if previous.errorVersion != current.errorVersion { registrar.withMutation(of: self, keyPath: \.error) {} }
        if previous.isLoading != current.isLoading { registrar.withMutation(of: self, keyPath: \.isLoading) {} }
        return true
    }
}
