/// Why a command failed: short, lowercase, quoting the input and saying what would be accepted.
public struct InspectorError: Error, CustomStringConvertible, Equatable {
    /// What kind of failure, for the exit status.
    public enum Kind: Equatable, Sendable {
        /// The command or its arguments were wrong.
        case command
        /// An `expect` did not hold.
        case expectation
    }

    public let kind: Kind
    public let message: String

    public init(_ message: String, kind: Kind = .command) {
        self.message = message
        self.kind = kind
    }

    public var description: String { message }
}
