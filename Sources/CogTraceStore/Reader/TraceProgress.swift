import CogTraceFormat

/// How far a long piece of work over a trace has got (an index build, filling a table): the
/// engine reports it, and a front end decides whether and how to show it.
public struct TraceProgress: Equatable, Sendable {
    /// What is being done, in a few lowercase words ("indexing events").
    public let task: String
    /// Units done so far, out of `total` (turns, for the work the reader does).
    public let completed: Int
    /// Units in all; 0 when the work cannot say (a SQL query), so a front end shows no fraction.
    public let total: Int

    public init(task: String, completed: Int, total: Int) {
        self.task = task
        self.completed = completed
        self.total = total
    }

    /// `completed` over `total`, from 0 to 1 (1 when `total` is 0).
    public var fraction: Double { total > 0 ? min(1, Double(completed) / Double(total)) : 1 }
}

extension TraceFile {
    func reportProgress(_ progress: TraceProgress) { self.progress?(progress) }
}
