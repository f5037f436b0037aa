public import CogTraceFormat

/// A run of turns a trace's numbering says exist but whose records are not in the file: turn
/// `last + 1` follows turn `first - 1` at `line`. A ring's evicted turns come before the first
/// turn of the file and are not a gap; this is lines lost or cut out of the middle.
public struct MissingTurns: Equatable, Sendable, CustomStringConvertible {
    /// The first turn number missing.
    public let first: TurnNumber
    /// The last turn number missing.
    public let last: TurnNumber
    /// The line of the turn record after the gap.
    public let line: Int

    /// `turns 9–10 are missing from the file`, or `turn 9 is …` for one.
    public var description: String {
        first == last
            ? "turn \(first) is missing from the file"
            : "turns \(first)–\(last) are missing from the file"
    }
}
