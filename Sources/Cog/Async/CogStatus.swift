/// The lifecycle of an async value, read through the status lens (`cogs.status[ref]`).
///
/// `value` always answers what a UI can show: the last accepted success, else the declared
/// default. At the UI edge each field is tracked on its own, so a view that reads only
/// `isLoading` is not invalidated by a new value; in a selector or reaction, reading the status
/// tracks all of it.
nonisolated public struct CogStatus<Value> {
    /// Where the async value stands.
    public enum Kind: String, Sendable, Equatable, Codable {
        /// Work is in flight and no newer result has arrived.
        case pending
        /// The last result was a value.
        case success
        /// The last result was an error.
        case failure
    }

    let storedKind: Kind
    let storedValue: Value
    let storedHasSucceeded: Bool
    let storedError: (any Error)?
    let storedIsLoading: Bool
    /// Set for a UI read: each field getter registers its own Observation access.
    let fieldObserver: StatusBoundary?

    /// Pending, success or failure.
    public var kind: Kind {
        noteAccess(.kind)
        return storedKind
    }

    /// The last accepted success, or the declared default before one exists.
    public var value: Value {
        noteAccess(.value)
        return storedValue
    }

    /// Whether any generation has ever succeeded (a successful `nil` counts).
    public var hasSucceeded: Bool {
        noteAccess(.hasSucceeded)
        return storedHasSucceeded
    }

    /// The current failure's error; nil unless `kind` is `.failure`.
    public var error: (any Error)? {
        noteAccess(.error)
        return storedError
    }

    /// Whether work is in flight.
    public var isLoading: Bool {
        noteAccess(.isLoading)
        return storedIsLoading
    }

    /// Tells a UI-boundary observer which field was read. Only a status read at the UI edge has
    /// one, and the UI reads on the main actor; a status from anywhere else reads freely.
    private func noteAccess(_ field: StatusBoundary.Field) {
        guard let fieldObserver else { return }
        MainActor.assumeIsolated { fieldObserver.access(field) }
    }

    init(
        kind: Kind, value: Value, hasSucceeded: Bool, error: (any Error)?, isLoading: Bool,
        fieldObserver: StatusBoundary? = nil
    ) {
        storedKind = kind
        storedValue = value
        storedHasSucceeded = hasSucceeded
        storedError = error
        storedIsLoading = isLoading
        self.fieldObserver = fieldObserver
    }

    /// The same status with field tracking attached.
    func observed(by boundary: StatusBoundary) -> CogStatus {
        CogStatus(
            kind: storedKind, value: storedValue, hasSucceeded: storedHasSucceeded, error: storedError,
            isLoading: storedIsLoading, fieldObserver: boundary)
    }
}

extension CogStatus: CustomStringConvertible {
    public var description: String {
        var parts = ["\(storedKind.rawValue)", "value: \(storedValue)"]
        if storedHasSucceeded { parts.append("hasSucceeded") }
        if storedIsLoading { parts.append("loading") }
        if let storedError { parts.append("error: \(storedError)") }
        return "CogStatus(" + parts.joined(separator: ", ") + ")"
    }
}

/// A status crosses tasks and actors when its value can: a watch or a `run` body may send it,
/// or an `(old:, new:)` pair of them, through an `AsyncStream`. Its error is `Sendable` (every
/// `Error` is), and its field observer is a main-actor object, used only on the main actor.
extension CogStatus: Sendable where Value: Sendable {}
