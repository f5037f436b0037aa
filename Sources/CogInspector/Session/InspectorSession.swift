public import CogTraceFormat
public import CogTraceStore

/// An open trace with a cursor: the turn whose resulting graph `get`, `deps` and the other look
/// commands show. It keeps what lasts between commands (the cursor, settings, watches and the
/// catalog); each command runs against a `CommandContext` made for its call and returns values.
public final class InspectorSession {
    /// The recording and what is built from it.
    let store: OpenTrace
    /// Where the trace came from, for `info` and messages.
    public let source: String
    /// The turn the cursor is on; 0 before the first turn of an empty trace.
    public internal(set) var cursor: TurnNumber
    public var settings = InspectorSettings()
    /// The expressions `watch` reports on as turns arrive, in the order they were added.
    var watches: [Watch] = []
    /// Set by `quit`.
    public private(set) var wantsToQuit = false
    /// Further recordings opened beside this one: `export sqlite` writes them all into one
    /// database; every other command needs a single trace.
    public var companions: [InspectorSession] = []
    /// The commands this session runs and the formats its `export` writes.
    public let catalog: CommandCatalog

    /// Opens a session with the cursor on the last turn, or, in the trace of a failing test, on
    /// the last turn that ended before its first failure: the graph as the test saw it. It runs
    /// the commands of `catalog`: the engine's own by default.
    public init(trace: TraceFile, source: String, catalog: CommandCatalog = .core) {
        store = OpenTrace(trace: trace)
        self.source = source
        self.catalog = catalog
        cursor = store.openingTurn
    }

    /// The recording; `follow` replaces it with a restarted app's new one.
    public var trace: TraceFile { store.trace }

    /// The turn numbers, in order.
    public var turns: [TurnNumber] { trace.turnSequences }

    /// The prompt shown interactively: `turn 12/87> `.
    public var prompt: String {
        "turn \(cursor)/\(turns.last ?? 0)> "
    }

    /// Moves the cursor to turn `sequence`.
    /// - Throws: `InspectorError` if the trace has no such turn.
    public func move(to sequence: TurnNumber) throws(InspectorError) {
        let context = context()
        try context.move(to: sequence)
        cursor = context.cursor
    }

    /// Moves the cursor `steps` turns forward (negative: back), stopping at either end.
    public func step(_ steps: Int) {
        let context = context()
        context.step(steps)
        cursor = context.cursor
    }

    /// A context for one command: this session's trace, cursor, settings and watches, and the
    /// front end's parameters for the call.
    package func context(_ call: CommandCall = CommandCall()) -> CommandContext {
        CommandContext(
            store: store, source: source, cursor: cursor, settings: settings, watches: watches, catalog: catalog,
            companions: companions.map { $0.context(call) }, call: call)
    }

    /// Takes what a command changed in its context: where the cursor is, the settings, the
    /// watches, and whether the session ends.
    func apply(_ context: CommandContext) {
        cursor = context.cursor
        settings = context.settings
        watches = context.watches
        if context.quits { wantsToQuit = true }
    }

    /// Starts building the event index on another thread, for an interactive session: the
    /// commands that need it (`history`, `async`, `leases`, `bisect`, `find`) then wait only for
    /// what is left of the build. A batch run answers its commands at once and does not start it.
    public func indexInBackground() {
        store.indexInBackground()
    }

    /// The turns whose records could not be decoded (the timeline is built to find them).
    public var undecodableTurns: [(turn: TurnNumber, error: TraceReadError)] { store.timeline.undecodable }
}
