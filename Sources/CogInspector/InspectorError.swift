/// Why a command failed: short, lowercase, quoting the input and saying what would be accepted.
public struct InspectorError: Error, CustomStringConvertible, Equatable {
    /// What kind of failure, for the exit status.
    public enum Kind: Equatable, Sendable {
        /// The command or its arguments were wrong.
        case command
        /// An `expect` did not hold.
        case expectation
        /// Ctrl-C stopped the command before it answered.
        case interrupted
        /// An output file could not be created, or would replace something without `--force`.
        case output
        /// The trace's file was cut shorter on disk while it was open: what it held past its new
        /// end cannot be read any more.
        case traceChanged
        /// The trace holds a record the answer needed that cannot be decoded (exit 65, as a
        /// trace refused at load).
        case malformedTrace
    }

    /// The error of a command that Ctrl-C stopped.
    public static let interrupted = InspectorError(
        "interrupted; the cursor is where it was before the command", kind: .interrupted)

    /// The failure of an answer that needed a record `error` says cannot be decoded.
    public static func malformed(_ error: some Error) -> InspectorError {
        InspectorError("the trace is malformed: \(error)", kind: .malformedTrace)
    }

    /// What kind of failure it is.
    public let kind: Kind
    /// The message a person reads.
    public let message: String

    /// A failure saying `message`.
    public init(_ message: String, kind: Kind = .command) {
        self.message = message
        self.kind = kind
    }

    /// The message.
    public var description: String { message }
}
