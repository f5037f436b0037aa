public import CogTraceFormat
public import CogTraceStore

/// An open trace with a cursor: the turn whose resulting graph `get`, `deps` and the other look
/// commands show. Commands run against a session and return values.
public final class InspectorSession {
    /// The recording; `follow` replaces it with a restarted app's new one (`adopt`).
    public private(set) var trace: TraceFile
    /// Where the trace came from, for `info` and messages.
    public let source: String
    /// The turn the cursor is on; 0 before the first turn of an empty trace.
    public internal(set) var cursor: TurnNumber
    public var settings = InspectorSettings()
    /// Set by `quit`.
    public private(set) var wantsToQuit = false
    private var builtTimeline: StateTimeline?
    /// A timeline of a few subjects' events, built for a command that reads only those before the
    /// whole timeline exists (`timeline(covering:)`); dropped once the whole one is built.
    private var subjectTimeline: StateTimeline?
    /// The timeline the command running now read, so its answer gets the warnings for turns the
    /// timeline had to leave out.
    var timelineReadByCommand: StateTimeline?
    /// Set by a batch runner before its last command: a cold `history`, `async` or `bisect` may
    /// then index only the states it names, since no later command will need the others (two
    /// such scans cost more than one of every state). Otherwise, at the prompt (which builds the
    /// whole index in the background from the start) and before a batch's other commands, the
    /// first question builds the whole index.
    public var noCommandFollows = false
    /// Turns a backward search in the command running now could not read: its answer warns of
    /// them too.
    var searchedUndecodable: [(turn: TurnNumber, error: TraceReadError)] = []
    /// Ids the command running now had to show as `#id`: no state record or registration names
    /// them, so lines were lost or the file was edited.
    var undeclaredNamed: Set<NodeID> = []
    /// The event index being built on another thread, when `indexInBackground()` started one.
    private var backgroundIndex: BackgroundIndex?
    /// Whether the timeline has been built (a command may answer without it until then).
    var hasTimeline: Bool { builtTimeline != nil || backgroundIndex?.isFinished == true }
    /// Every event indexed by state, built on first use (or taken from the background build,
    /// waiting for it to finish).
    var timeline: StateTimeline {
        settleBackgroundIndex()
        if let builtTimeline {
            timelineReadByCommand = builtTimeline
            return builtTimeline
        }
        let built = StateTimeline(trace: trace)
        if built.isComplete {
            builtTimeline = built
            subjectTimeline = nil
        }
        timelineReadByCommand = built
        return built
    }

    /// A timeline that holds the events of `subjects` (what `history`, `async`, `bisect` and
    /// `info` read): the whole one when it is built or being built, or when another command may
    /// follow (`noCommandFollows`); else one of those subjects alone. Indexing a few subjects
    /// scans every record as the whole index does but files only their events, which keeps the
    /// first `history` on a big trace within its target (docs/performance.md, "Inspector").
    /// Other subjects later get the whole index: a second scan for a few
    /// more would cost more than one scan of all.
    func timeline(covering subjects: [NodeID]) -> StateTimeline {
        let mayIndexOnlyThese = noCommandFollows || subjectTimeline != nil
        if hasTimeline || isIndexingInBackground || !mayIndexOnlyThese { return timeline }
        if let subjectTimeline {
            guard subjects.allSatisfy(subjectTimeline.covers) else { return timeline }
            timelineReadByCommand = subjectTimeline
            return subjectTimeline
        }
        let built = StateTimeline(trace: trace, only: subjects)
        if built.isComplete { subjectTimeline = built }
        timelineReadByCommand = built
        return built
    }
    /// Following the trace's file as it is written, once `follow` started it.
    var following: FollowState?
    /// The expressions `watch` reports on as turns arrive, in the order they were added.
    var watches: [Watch] = []

    /// Waits for an index being built on another thread and keeps it as the timeline, so the
    /// trace may change (a build starts only while there is no timeline yet).
    func settleBackgroundIndex() {
        guard let backgroundIndex else { return }
        self.backgroundIndex = nil
        let built = StateTimeline(trace: trace, index: backgroundIndex.wait())
        if built.isComplete {
            builtTimeline = built
            subjectTimeline = nil
        }
    }

    /// Extends the timelines with turns that arrived.
    func extendIndexes() {
        builtTimeline?.extend()
        subjectTimeline?.extend()
    }

    /// Makes `newTrace` (a restarted app's recording at the same path) the session's trace: the
    /// cursor goes to its newest turn, every index and table built from the old one goes, and
    /// the watches are evaluated afresh. Settings, history and the front end's hooks stay.
    func adopt(_ newTrace: TraceFile) {
        settleBackgroundIndex()
        newTrace.cancellation = trace.cancellation
        newTrace.progress = trace.progress
        trace = newTrace
        cursor = Self.openingTurn(of: newTrace)
        builtTimeline = nil
        subjectTimeline = nil
        timelineReadByCommand = nil
        searchedUndecodable = []
        following = nil
    }

    /// Whether an index build is running on another thread.
    var isIndexingInBackground: Bool { backgroundIndex != nil }

    /// Adopts a build started on another thread.
    func startBackgroundIndex(_ build: BackgroundIndex) { backgroundIndex = build }

    /// Further recordings opened beside this one: `export sqlite` writes them all into one
    /// database; every other command needs a single trace.
    public var companions: [InspectorSession] = []
    /// The commands this session runs and the formats its `export` writes.
    public let catalog: CommandCatalog

    /// Opens a session with the cursor on the last turn, or, in the trace of a failing test, on
    /// the last turn that ended before its first failure: the graph as the test saw it. It runs
    /// the commands of `catalog`: the engine's own by default.
    public init(trace: TraceFile, source: String, catalog: CommandCatalog = .core) {
        self.trace = trace
        self.source = source
        self.catalog = catalog
        cursor = Self.openingTurn(of: trace)
    }

    /// The last turn, or the last one at or before the first failure.
    static func openingTurn(of trace: TraceFile) -> TurnNumber {
        guard let failure = trace.failures.first else { return trace.turnSequences.last ?? 0 }
        return trace.turnSequences.last { $0 <= failure.after } ?? trace.turnSequences.first ?? 0
    }

    /// The turn numbers, in order.
    public var turns: [TurnNumber] { trace.turnSequences }

    /// The prompt shown interactively: `turn 12/87> `.
    public var prompt: String {
        "turn \(cursor)/\(turns.last ?? 0)> "
    }

    /// Moves the cursor to turn `sequence`.
    /// - Throws: `InspectorError` if the trace has no such turn.
    public func move(to sequence: TurnNumber) throws(InspectorError) {
        try requireTurn(sequence)
        cursor = sequence
    }

    /// Answers `body` as if the cursor were on turn `turn` (when given), then puts the cursor back
    /// where it was: how `get @N` asks about another turn without moving.
    func answering<Answer>(
        at turn: TurnNumber?, _ body: () throws(InspectorError) -> Answer
    ) throws(InspectorError) -> Answer {
        guard let turn else { return try body() }
        let here = cursor
        cursor = turn
        defer { cursor = here }
        return try body()
    }

    /// Fails unless the trace holds turn `sequence`, saying which turns it has.
    func requireTurn(_ sequence: TurnNumber) throws(InspectorError) {
        guard trace.entryIndex(of: sequence) == nil else { return }
        throw InspectorError("no turn \(sequence) in this trace; it has \(turnsHeld)")
    }

    /// The turns the trace holds, as messages say it: `turns 1..25`, or `no turns`.
    var turnsHeld: String {
        guard let first = turns.first, let last = turns.last else { return "no turns" }
        return "turns \(first)..\(last)"
    }

    /// What a range that selected no turn says: which turns there are.
    func emptyRangeMessage(_ range: ClosedRange<TurnNumber>) -> String {
        let asked =
            range.lowerBound == range.upperBound
            ? "turn \(range.lowerBound)"
            : [
                range.lowerBound.rawValue == Int.min ? "" : "\(range.lowerBound)", "..",
                range.upperBound.rawValue == Int.max ? "" : "\(range.upperBound)",
            ].joined()
        return "no turns in \(asked); the trace has \(turnsHeld)"
    }

    /// Moves the cursor `steps` turns forward (negative: back), stopping at either end.
    public func step(_ steps: Int) {
        guard let index = trace.entryIndex(of: cursor) else { return }
        let (target, overflowed) = index.addingReportingOverflow(steps)
        let clamped = overflowed ? (steps > 0 ? turns.count - 1 : 0) : max(0, min(turns.count - 1, target))
        cursor = turns[clamped]
    }

    func quit() {
        wantsToQuit = true
    }

    /// The graph after the cursor's turn.
    package func graph(after sequence: TurnNumber? = nil) throws(InspectorError) -> GraphSnapshot {
        do {
            return try trace.snapshot(after: sequence ?? cursor)
        } catch {
            throw malformed(error)
        }
    }

    /// Decodes one turn.
    package func turn(_ sequence: TurnNumber) throws(InspectorError) -> TraceTurn {
        do {
            return try trace.turn(sequence)
        } catch {
            throw error.line == 0 && error != TraceFile.cancelled ? InspectorError(error.message) : malformed(error)
        }
    }

    /// A read error as a command's failure: an interrupt, or the line that is malformed.
    func malformed(_ error: TraceReadError) -> InspectorError {
        error == TraceFile.cancelled ? .interrupted : InspectorError("the trace is malformed: \(error)")
    }

    /// Whether long answers may come as `Report.streamedTable` (rows found while they are
    /// shown): the interactive front end sets it; everyone else gets whole tables.
    public var streamsTables = false

    /// Asked during long commands: true stops them, and `execute` then throws
    /// `InspectorError.interrupted` with the cursor where it was. The front end sets it to its
    /// Ctrl-C check.
    public var interruptRequested: @Sendable () -> Bool = { false } {
        didSet {
            let check = interruptRequested
            trace.cancellation = check
        }
    }

    /// Told how long work over the whole trace is getting on (building the event index,
    /// scanning turns for a table); the front end decides whether to show it.
    public var progress: ((TraceProgress) -> Void)? {
        get { trace.progress }
        set { trace.progress = newValue }
    }

    /// The label of a state or registration id; `#id` for one the trace never declares, which
    /// the answer then warns of (`undeclaredNamed`).
    package func label(_ id: NodeID, in graph: GraphSnapshot? = nil) -> String {
        if let label = trace.states[id]?.label ?? graph?.registrations[id]?.name ?? timeline.registrationNames[id] {
            return label
        }
        undeclaredNamed.insert(id)
        return "#\(id)"
    }

    /// A state or registration id with its label, for typed answers.
    func reference(_ id: NodeID, in graph: GraphSnapshot? = nil) -> StateReference {
        StateReference(id: id, label: label(id, in: graph))
    }

    /// The id of the state a person named, or an error with the closest label.
    func resolveState(_ label: String) throws(InspectorError) -> NodeID {
        if let id = trace.stateID(labelled: label) { return id }
        if let refusal = registrationRefusal(label, command: "this command") { throw refusal }
        let labels = trace.states.values.map(\.label)
        if let suggestion = closestMatch(to: label, among: labels) {
            throw InspectorError("unknown state '\(label)'; did you mean '\(suggestion)'?")
        }
        throw InspectorError("unknown state '\(label)'; 'state' lists the states")
    }
}
