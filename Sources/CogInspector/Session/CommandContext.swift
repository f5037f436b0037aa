package import CogTraceFormat
package import CogTraceStore

/// What one command runs against: the open trace (and what is built from it), the cursor, the
/// settings and watches as the command found them, and the front end's parameters for this call.
/// A command reads and changes only its context; `InspectorSession.execute` then takes what the
/// command changed (the cursor, settings, watches, quitting) and adds the warnings its reading
/// gathered here, so nothing a command does writes to the session directly.
package final class CommandContext {
    /// The recording and its indexes.
    package let store: OpenTrace
    /// Where the trace came from, for `info` and messages.
    package let source: String
    /// The turn the answer is about; a travel command moves it.
    package internal(set) var cursor: TurnNumber
    /// The settings; `set` and `clear` change them.
    package var settings: InspectorSettings
    /// The expressions `watch` reports on as turns arrive.
    var watches: [Watch]
    /// Set by `quit`.
    private(set) var quits = false
    /// The commands the session runs and the formats its `export` writes.
    package let catalog: CommandCatalog
    /// Further recordings open beside this one, each with its own context for this call.
    package let companions: [CommandContext]
    /// The front end's parameters for this call.
    package let call: CommandCall
    /// The timeline the command read last, so its answer warns of the turns it had to leave out.
    var timelineRead: StateTimeline?
    /// Turns a backward search could not read: the answer warns of them too.
    var searchedUndecodable: [(turn: TurnNumber, error: TraceReadError)] = []
    /// Ids the answer had to show as `#id`: no state record or registration names them, so
    /// lines were lost or the file was edited.
    private(set) var undeclaredNamed: Set<NodeID> = []
    /// Files the command made ready, put in place by `execute` once it answered uninterrupted.
    var pendingOutputs: [PendingOutput] = []

    /// A context for one call on `store`.
    init(
        store: OpenTrace, source: String, cursor: TurnNumber, settings: InspectorSettings, watches: [Watch],
        catalog: CommandCatalog, companions: [CommandContext], call: CommandCall
    ) {
        self.store = store
        self.source = source
        self.cursor = cursor
        self.settings = settings
        self.watches = watches
        self.catalog = catalog
        self.companions = companions
        self.call = call
        store.trace.cancellation = call.interruptRequested
        store.trace.progress = call.progress
    }

    /// The recording.
    package var trace: TraceFile { store.trace }

    /// The turn numbers, in order.
    package var turns: [TurnNumber] { trace.turnSequences }

    /// Asked during long work: true stops it.
    package var interruptRequested: @Sendable () -> Bool { call.interruptRequested ?? { false } }

    /// Where reports of long work go.
    package var progress: ((TraceProgress) -> Void)? { call.progress }

    /// Whether a long answer may come as a stream.
    package var streamsTables: Bool { call.streamsTables }

    /// Whether the whole timeline has been built (a command may answer without it until then).
    var hasTimeline: Bool { store.hasTimeline }

    /// Whether an index build is running on another thread.
    var isIndexingInBackground: Bool { store.isIndexingInBackground }

    /// Every event indexed by state (see `OpenTrace.timeline`), noted as read by this command.
    var timeline: StateTimeline {
        let read = store.timeline
        timelineRead = read
        return read
    }

    /// A timeline holding the events of `subjects` (see `OpenTrace.timeline(covering:)`),
    /// noted as read by this command.
    func timeline(covering subjects: [NodeID]) -> StateTimeline {
        let read = store.timeline(covering: subjects, mayIndexOnlyThese: call.isLastCommand)
        timelineRead = read
        return read
    }

    /// Ends the session once the command returns.
    func quit() {
        quits = true
    }

    /// The label of a state or registration id; `#id` for one the trace never declares, which
    /// the answer then warns of.
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
}
