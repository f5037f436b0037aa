public import CogTraceStore

/// What the front end passes with one command: how to tell it was interrupted, where reports of
/// long work go, whether a long answer may come as a stream, and whether another command follows.
/// They are parameters of the call, so the engine keeps none of the front end's concerns.
public struct CommandCall {
    /// Asked during long work: true stops it, and `execute` throws `InspectorError.interrupted`
    /// with the cursor where it was (the prompt passes its Ctrl-C check). Nil: never
    /// interrupted, and the trace's reads ask nothing.
    public var interruptRequested: (@Sendable () -> Bool)?
    /// Told how long work over the whole trace is getting on (building the event index, scanning
    /// turns for a table); the front end decides whether to show it.
    public var progress: ((TraceProgress) -> Void)?
    /// Whether a long answer may come as `Report.streamedTable` (rows found while they are shown),
    /// as the prompt's pager reads it; otherwise every table comes whole.
    public var streamsTables: Bool
    /// Whether no command follows this one (a batch run's last): a cold `history`, `async` or
    /// `bisect` may then index only the states it names, since nothing later needs the others
    /// (two such scans cost more than one of every state). At the prompt, which builds the whole
    /// index in the background, and before a batch's other commands, the first question builds
    /// the whole index.
    public var isLastCommand: Bool

    /// A call with the given parameters; by default one that is never interrupted, reports
    /// nothing, answers whole, and may be followed by others.
    public init(
        interruptRequested: (@Sendable () -> Bool)? = nil,
        progress: ((TraceProgress) -> Void)? = nil, streamsTables: Bool = false, isLastCommand: Bool = false
    ) {
        self.interruptRequested = interruptRequested
        self.progress = progress
        self.streamsTables = streamsTables
        self.isLastCommand = isLastCommand
    }
}
