/// A mistake on the command line: an unknown option, a missing value, a value out of range. Every
/// tool prints it after its own name and exits with `ExitStatus.usage`.
public struct UsageError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The message: lowercase, quoting what was given and saying what is accepted.
    public let description: String

    /// A usage error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
