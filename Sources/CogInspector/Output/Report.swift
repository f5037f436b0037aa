public import CogTraceFormat

/// What a command found, as typed values; rendering to text or JSON is a separate step
/// (`ReportRenderer`).
public indirect enum Report: Equatable {
    /// A sentence: a confirmation, or why there is nothing to show.
    case message(String)
    /// Why the answer around it may be incomplete or wrong, e.g. a turn that could not be decoded.
    case warning(String)
    /// Named fields, in order.
    case fields([Field])
    /// Rows of typed cells under column names.
    case table(columns: [String], rows: [[Cell]])
    /// A table whose rows are worked out batch by batch as they are read: the front end shows
    /// the first screen of a long answer before the rest exists. Only a session that
    /// `streamsTables` returns one; every other caller gets `.table`.
    case streamedTable(columns: [String], rows: TableRowStream)
    /// Plain lines of prose (help text, notes).
    case lines([String])
    /// A titled part of a longer report.
    case section(String, [Report])
    /// A document in its own format (DOT, Mermaid, JSON), printed exactly as it is.
    case document(String)
    /// A `why` answer: a tree of causes from the value asked about to its roots.
    case causalChain(CausalChain)
    /// Events of a turn, each with its sentence.
    case events([DescribedEvent])
    /// What differs between two graphs.
    case changes([DiffEntry])
    /// A watched expression's value changing in a turn that arrived (`watch`).
    case watchChange(WatchChange)
    /// Turns the front end steps through at its own pace (`play`), printing each as it is
    /// reached with `CommandContext.playStep(_:)`. Renderers print nothing for it.
    case playback(Playback)
    /// `clear`: the front end clears the terminal's screen (when there is one). Renderers print
    /// nothing for it.
    case clearScreen
    /// A comparison's or search's answer: the recordings agree or differ, or nothing was found.
    /// Text shows only the sentence beside it; JSON says `{"verdict":"differs"}`; in batch a "no"
    /// (`differs`, `notFound`) makes the exit status 1.
    case verdict(Verdict)
}

/// The verdicts a command can give; a batch run turns the "no" ones into exit status 1.
public enum Verdict: String, Equatable, Sendable {
    /// `diff --trace`: the recordings agree on every step compared.
    case agree
    /// `diff --trace`: the recordings part ways.
    case differs
    /// `bisect`: the expression holds at no turn.
    case notFound

    /// Whether it is a "no" answer, which fails a batch run.
    public var isNo: Bool { self != .agree }
}

/// What `play` asks of the front end: these turns, in order, with a pause between them.
public struct Playback: Equatable, Sendable {
    /// The turns to step through.
    public let turns: [TurnNumber]
    /// The pause after each turn but the last.
    public let delay: Duration
}

/// One command's result: what it was, and its report.
public struct CommandResult: Equatable {
    /// The command's full name, e.g. `get`.
    public let command: String
    /// What it found, in order.
    public let report: [Report]

    /// The result of `command`.
    public init(command: String, report: [Report]) {
        self.command = command
        self.report = report
    }

    /// The command's "no", if it gave one.
    public var verdict: Verdict? {
        for part in report { if case .verdict(let verdict) = part { return verdict } }
        return nil
    }

    /// Whether the command asks the front end to clear the screen.
    public var clearsScreen: Bool {
        report.contains { if case .clearScreen = $0 { true } else { false } }
    }

    /// The turns the front end should play, when the command was `play`.
    public var playback: Playback? {
        for part in report { if case .playback(let playback) = part { return playback } }
        return nil
    }
}

/// A trace event with the sentence that describes it, labels in place of ids.
public struct DescribedEvent: Equatable {
    /// The turn it belongs to (after the turn for idle events).
    public let turn: TurnReference
    /// The event as the trace holds it.
    public let event: TraceEvent
    /// The event as a person reads it.
    public let description: String
}
