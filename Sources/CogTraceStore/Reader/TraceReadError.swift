import CogTraceFormat

/// Why a trace could not be read: which line, which column, and what was wrong.
public struct TraceReadError: Error, CustomStringConvertible, Equatable {
    /// The 1-based line; 0 when the problem is the file as a whole.
    public let line: Int
    /// The 1-based byte column within the line; 0 when not about one place.
    public let column: Int
    /// A short lowercase message saying what was expected.
    public let message: String
    /// Whether the file could not be opened or read at all (missing, unreadable, not a regular
    /// file), as opposed to read and found malformed.
    public let isUnopenable: Bool

    /// An error at `line` (and `column`), saying `message`.
    public init(line: Int, column: Int = 0, message: String, isUnopenable: Bool = false) {
        self.line = line
        self.column = column
        self.message = message
        self.isUnopenable = isUnopenable
    }

    public var description: String {
        switch (line, column) {
        case (0, _): message
        case (_, 0): "line \(line): \(message)"
        default: "line \(line), column \(column): \(message)"
        }
    }
}

/// Something the reader tolerated: the trace loads, but a person should know.
public struct TraceWarning: CustomStringConvertible, Equatable, Sendable {
    /// The 1-based line it concerns; 0 for the file as a whole.
    public let line: Int
    public let message: String

    public var description: String { line == 0 ? message : "line \(line): \(message)" }
}
