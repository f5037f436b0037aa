import Cog

/// One turn as the recorder holds it: where its events lie in the log, converted only when needed.
struct RecordedTurn {
    let info: CogTurnInfo
    /// Nanoseconds from when recording began to the turn's start, and the turn's length.
    let start: Int
    let duration: Int
    /// The turn's own events.
    let events: Range<Int>
    /// Where the events after the turn, and before the next one, end; they begin where the
    /// turn's own end.
    var afterEnd: Int

    /// The events after the turn and before the next one.
    var after: Range<Int> { events.upperBound..<afterEnd }
}
