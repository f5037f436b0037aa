package import CogTraceFormat
package import CogTraceStore

/// An open recording and what is built from it between commands: the event timeline (of every
/// state, or of the few a cold question named), an index being built on another thread, and the
/// follower reading the file as the app writes it. A command reads it through its
/// `CommandContext`; what it builds here is a cache, never part of an answer's state.
package final class OpenTrace {
    /// The recording; `adopt` replaces it with a restarted app's new one.
    package private(set) var trace: TraceFile
    /// The timeline of every state, once built.
    private var wholeTimeline: StateTimeline?
    /// A timeline of a few subjects' events, built for a command that reads only those before the
    /// whole timeline exists (`timeline(covering:mayIndexOnlyThese:)`); dropped once the whole
    /// one is built.
    private var subjectTimeline: StateTimeline?
    /// The event index being built on another thread, when `indexInBackground()` started one.
    private var backgroundIndex: BackgroundIndex?
    /// Following the trace's file as it is written, once `follow` started it.
    var following: FollowState?

    /// An open `trace`, with nothing built yet.
    package init(trace: TraceFile) {
        self.trace = trace
    }

    /// Where a session opens: the last turn, or, in the trace of a failing test, the last one at
    /// or before its first failure (the graph as the test saw it).
    var openingTurn: TurnNumber {
        guard let failure = trace.failures.first else { return trace.turnSequences.last ?? 0 }
        return trace.turnSequences.last { $0 <= failure.after } ?? trace.turnSequences.first ?? 0
    }

    /// The label of a state or registration id, or `#id` for one the trace never declares.
    package func label(_ id: NodeID) -> String {
        trace.states[id]?.label ?? timeline.registrationNames[id] ?? "#\(id)"
    }

    /// Whether the whole timeline has been built (a command may answer without it until then).
    var hasTimeline: Bool { wholeTimeline != nil || backgroundIndex?.isFinished == true }

    /// Whether an index build is running on another thread.
    var isIndexingInBackground: Bool { backgroundIndex != nil }

    /// Every event indexed by state, built on first use (or taken from the background build,
    /// waiting for it to finish). A build cut short by an interrupt is returned but not kept.
    var timeline: StateTimeline {
        settleBackgroundIndex()
        if let wholeTimeline { return wholeTimeline }
        let built = StateTimeline(trace: trace)
        if built.isComplete {
            wholeTimeline = built
            subjectTimeline = nil
        }
        return built
    }

    /// A timeline that holds the events of `subjects` (what `history`, `async`, `bisect` and
    /// `info` read): the whole one when it is built or being built, or unless
    /// `mayIndexOnlyThese` (no other command follows) or a subject timeline exists; else one
    /// of those subjects alone. Indexing a few subjects scans every record as the whole index
    /// does but files only their events, which keeps the first `history` on a big trace within
    /// its target (docs/performance.md, "Inspector"). Other subjects later get the whole
    /// index: a second scan for a few more would cost more than one scan of all.
    func timeline(covering subjects: [NodeID], mayIndexOnlyThese: Bool) -> StateTimeline {
        let onlyThese = mayIndexOnlyThese || subjectTimeline != nil
        if hasTimeline || isIndexingInBackground || !onlyThese { return timeline }
        if let subjectTimeline {
            guard subjects.allSatisfy(subjectTimeline.covers) else { return timeline }
            return subjectTimeline
        }
        let built = StateTimeline(trace: trace, only: subjects)
        if built.isComplete { subjectTimeline = built }
        return built
    }

    /// Waits for an index being built on another thread and keeps it as the timeline, so the
    /// trace may change (a build starts only while there is no timeline yet).
    func settleBackgroundIndex() {
        guard let backgroundIndex else { return }
        self.backgroundIndex = nil
        let built = StateTimeline(trace: trace, index: backgroundIndex.wait())
        if built.isComplete {
            wholeTimeline = built
            subjectTimeline = nil
        }
    }

    /// Starts building the event index on another thread, unless there is one or a build runs.
    func indexInBackground() {
        guard !hasTimeline, !isIndexingInBackground else { return }
        backgroundIndex = BackgroundIndex(trace: trace)
    }

    /// Extends the timelines with turns that arrived.
    func extendIndexes() {
        wholeTimeline?.extend()
        subjectTimeline?.extend()
    }

    /// Makes `newTrace` (a restarted app's recording at the same path) its trace: every
    /// index built from the old one goes, and following stops until it is started on the new one.
    func adopt(_ newTrace: TraceFile) {
        settleBackgroundIndex()
        newTrace.cancellation = trace.cancellation
        newTrace.progress = trace.progress
        trace = newTrace
        wholeTimeline = nil
        subjectTimeline = nil
        following = nil
    }

    /// Follows the file `follower` reads; its trace must be this one. A trace that already has
    /// its trailer is followed no further.
    func follow(_ follower: TraceFollower) {
        precondition(follower.trace === trace, "a follower of another trace")
        following = FollowState(follower: follower)
        if trace.trailer != nil { following?.ended = .finished }
    }

    /// Starts keeping the graph after the newest turn, which watches and `--until` read.
    func keepLiveGraph() throws(TraceReadError) {
        guard let following, following.liveGraph == nil else { return }
        following.liveGraph = try LiveGraph(trace: trace)
    }
}
