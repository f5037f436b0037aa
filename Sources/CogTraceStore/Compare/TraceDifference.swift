public import CogTraceFormat

/// One step (a turn, or the work after it) where two recordings differ, and how.
public struct TraceDifference: Equatable, Sendable {
    /// A part of what a step did.
    public enum Aspect: String, Sendable, CaseIterable {
        case turnName = "turn name"
        /// A source written (or seeded) differently.
        case writes
        /// A computed state with another value, trigger or gating.
        case recomputes
        /// States created, released, pinned, in grace; writes discarded.
        case lifecycle
        /// Reads added or dropped.
        case edges
        /// Who holds which state.
        case leases
        /// Async generations, statuses and refreshes, in order.
        case async
        /// Notices, reaction and watch runs, export offers.
        case effects
        /// Reactions, watches, scopes and tasks registered or ended.
        case registrations
        /// Test failures recorded after the turn.
        case failures
        /// Dropped turns and diagnostics.
        case other
        /// One recording ends before the other.
        case turnCount = "turn count"
    }

    /// The pair's position from the starting turn, from 0.
    public let position: Int
    /// The turn's number in the first recording; nil when that recording has ended.
    public let turn: TurnNumber?
    /// The turn's number in the second recording; nil when that recording has ended.
    public let otherTurn: TurnNumber?
    /// Whether the difference is in the work after the turn (`N+`), not the turn itself.
    public let afterTurn: Bool
    /// Every aspect that differs, in the order `lines` gives them.
    public let aspects: [Aspect]
    /// What differs, a line each: both sides' values for each state, what only one side did.
    public let lines: [String]

    /// The first aspect that differs.
    public var aspect: Aspect { aspects[0] }
    /// The first line, for a one-line summary.
    public var detail: String { lines.first ?? aspect.rawValue }
    /// `turn 5`, `turn 5+`, or `after the last turn`.
    public var place: String {
        turn.map { "turn \($0)\(afterTurn ? "+" : "")" } ?? "after the last turn"
    }

    public init(
        position: Int, turn: TurnNumber?, otherTurn: TurnNumber?, afterTurn: Bool, aspects: [Aspect], lines: [String]
    ) {
        self.position = position
        self.turn = turn
        self.otherTurn = otherTurn
        self.afterTurn = afterTurn
        self.aspects = aspects
        self.lines = lines
    }
}
