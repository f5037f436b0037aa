/// A failure the test running the recorded runtime reported, where it happened in the turn
/// sequence: after turn `after` (0 before the first), and before the next. A trace of a failing
/// test holds one per issue the test recorded.
public struct TraceFailure: Equatable, Sendable {
    /// What kind of failure, in the test framework's terms.
    public struct Kind: TraceKind {
        /// The word in the trace, e.g. `expectation`.
        public let rawValue: String
        /// A failure kind named `rawValue`; any word is kept.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// An expectation or assertion that did not hold.
        public static let expectation = Kind(rawValue: "expectation")
        /// An error thrown out of the test, or caught by the framework.
        public static let error = Kind(rawValue: "error")
        /// The test ran past its time limit.
        public static let timeLimit = Kind(rawValue: "timeLimit")
        /// An issue the test recorded itself.
        public static let issue = Kind(rawValue: "issue")
        /// The process crashed while the test ran (a trap, a fault, an abort): `signal` names it.
        public static let crash = Kind(rawValue: "crash")
        /// A signal stopped the process (a CI timeout's SIGTERM, Ctrl-C) before the test ended.
        public static let terminated = Kind(rawValue: "terminated")
        /// The test's runtime waited on async work and made no turn for a while; `waiting` names
        /// the work. The test may still have gone on.
        public static let stall = Kind(rawValue: "stall")
        /// Never written: the reader's word for a test's trace cut short with no record of how
        /// (the process was killed, or the machine stopped).
        public static let died = Kind(rawValue: "died")
        public static let known = [expectation, error, timeLimit, issue, crash, terminated, stall, died]
    }

    /// The last turn completed before the failure (0 when no turn had run).
    public let after: TurnNumber
    /// The test's name, e.g. `CheckoutTests.totalIncludesTax`.
    public let test: String
    public let kind: Kind
    /// What the framework said.
    public let message: String
    /// Where in the test's source, when the framework knew.
    public let file: String?
    public let line: Int?
    /// The signal that ended the process, for a `crash` or `terminated` record (`SIGILL`).
    public let signal: String?

    /// A failure after turn `after`.
    public init(
        after: TurnNumber, test: String, kind: Kind, message: String, file: String?, line: Int?,
        signal: String? = nil
    ) {
        self.signal = signal
        self.after = after
        self.test = test
        self.kind = kind
        self.message = message
        self.file = file
        self.line = line
    }

    /// `File.swift:12`, or nil when the location is unknown.
    public var location: String? {
        guard let file else { return nil }
        return line.map { "\(file):\($0)" } ?? file
    }
}

extension TraceFailure {
    /// The record form: `{"type":"failure","after":N,"test":…,"kind":…,"message":…,"file":…,"line":…}`.
    package var jsonValue: JSONValue {
        .object(
            [
                ("type", .string("failure")), ("after", .int(after)), ("test", .string(test)),
                ("kind", .string(kind.rawValue)), ("message", .string(message)),
                ("file", file.map(JSONValue.string) ?? .null), ("line", line.map { .int($0) } ?? .null),
            ] + (signal.map { [("signal", JSONValue.string($0))] } ?? []))
    }

    /// Reads a failure record; nil when it lacks `after` or `message`.
    package init?(jsonValue: JSONValue) {
        guard let after = jsonValue["after"]?.turnNumber, let message = jsonValue["message"]?.stringValue else {
            return nil
        }
        self.init(
            after: after, test: jsonValue["test"]?.stringValue ?? "",
            kind: Kind(rawValue: jsonValue["kind"]?.stringValue ?? Kind.issue.rawValue), message: message,
            file: jsonValue["file"]?.stringValue, line: jsonValue["line"]?.intValue,
            signal: jsonValue["signal"]?.stringValue)
    }
}
