/// An async generation that had started and not answered: what a test that never ended, or
/// stalled, was waiting on. The recorder's watchdog names it in a stall mark, and the store
/// finds it at the end of a trace; both say it the same way.
public struct TracePendingGeneration: Equatable, Sendable, CustomStringConvertible {
    public let state: NodeID
    /// The state's label, with its key.
    public let label: String
    public let generation: Int
    /// The turn it started in, when known.
    public let since: TurnNumber?

    public init(state: NodeID, label: String, generation: Int, since: TurnNumber?) {
        self.state = state
        self.label = label
        self.generation = generation
        self.since = since
    }

    /// `checkout.quote generation 2 (since turn 4)`.
    public var description: String {
        "\(label) generation \(generation)" + (since.map { " (since turn \($0))" } ?? "")
    }

    /// The generations as a list in words: `a generation 1 (since turn 3), b generation 2`.
    public static func list(_ pending: [TracePendingGeneration]) -> String {
        pending.map(\.description).joined(separator: ", ")
    }
}
