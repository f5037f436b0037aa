public import CogTraceFormat
public import CogTraceStore

/// Why following a trace stopped.
public enum FollowEnd: Equatable, Sendable {
    /// The trailer arrived: the recorder finished.
    case finished
    /// The file was truncated, replaced or removed under the inspector.
    case fileChanged(TraceFollower.Change)
    /// A line that arrived could not be read.
    case malformed(String)
    /// The batch run's `--until` condition held at this turn.
    case untilMet(TurnNumber)
}

/// What one look at a followed trace found: the turns that arrived, what the watches saw, and
/// whether following ended. The front end decides when to look and how to show it.
public struct FollowUpdate: Equatable {
    /// The turns that arrived, in order.
    public var newTurns: [TurnNumber] = []
    /// Whether the cursor moved with them (it was on the newest turn).
    public var movedCursor = false
    /// The watched expressions whose values changed, in turn order.
    public var watchChanges: [WatchChange] = []
    /// Set when following stopped during this look.
    public var ended: FollowEnd?

    /// Whether there is anything to show or do.
    public var isEmpty: Bool { newTurns.isEmpty && watchChanges.isEmpty && ended == nil }

    /// The watch changes, then why following stopped, as a command's report would give them.
    public var report: [Report] {
        watchChanges.map(Report.watchChange) + (ended.map { [$0.report] } ?? [])
    }
}

extension FollowEnd {
    /// The sentence a person reads when following stops this way.
    public var sentence: String {
        switch self {
        case .finished: "the recorder finished (the trailer arrived); following stopped"
        case .fileChanged(let change): "the followed file \(change.sentence); following stopped"
        case .malformed(let reason): "an arriving line is malformed (\(reason)); following stopped"
        case .untilMet(let turn): "the condition holds at turn \(turn); following stopped"
        }
    }

    /// The sentence as a report: a warning when the file went wrong, else a message.
    var report: Report {
        switch self {
        case .finished, .untilMet: .message(sentence)
        case .fileChanged, .malformed: .warning(sentence)
        }
    }
}

/// A session's following of its trace's file: the reader of arriving lines, the live graph the
/// watches read, the condition that ends a batch run, and turns that arrived while the cursor
/// was elsewhere, not yet announced.
final class FollowState {
    let follower: TraceFollower
    /// The graph after the newest turn, kept while anything is watched.
    var liveGraph: LiveGraph?
    /// `--until`: following ends at the first arriving turn where it holds.
    var until: TraceExpression?
    /// `--until` as given, while it names a state the trace has not named yet.
    var pendingUntil: String?
    /// Turns that arrived while the cursor was off the newest turn, since the last notice.
    var unannounced: (first: TurnNumber, last: TurnNumber, count: Int)?
    /// Why following stopped, once it has.
    var ended: FollowEnd?

    init(follower: TraceFollower) {
        self.follower = follower
    }
}
