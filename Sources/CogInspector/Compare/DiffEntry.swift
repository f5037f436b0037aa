import CogTraceFormat

/// One difference between two graphs, typed for `--json` and with its sentence for text:
/// a value or field that changed, a state created or released, an edge, a lease, an async
/// status, a registration.
public struct DiffEntry: Equatable {
    /// What happened to the subject.
    public enum Change: String, Sendable {
        case changed, created, released, added, removed, acquired, opened, retired
    }

    /// The part of the graph, as `diff --only` names it.
    public let aspect: GraphDiff.Aspect
    /// What happened.
    public let change: Change
    /// The state or registration that changed; the consumer of an edge.
    public let subject: StateReference
    /// The producer of an edge.
    public var producer: StateReference?
    /// The holder of a lease.
    public var holder: String?
    /// The field path of a structured value's change, e.g. `.temperatureF`.
    public var field: String?
    /// Before, when there is a before.
    public var old: Cell = .absent
    /// After, when there is an after.
    public var new: Cell = .absent
    /// The difference as a person reads it.
    public let description: String

    init(_ aspect: GraphDiff.Aspect, _ change: Change, _ subject: StateReference, description: String) {
        self.aspect = aspect
        self.change = change
        self.subject = subject
        self.description = description
    }
}
