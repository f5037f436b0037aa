import Foundation

/// What every executable of the package shares: its name in messages, its version, and how it
/// reports help, warnings and failures. One convention for all three tools.
public struct CommandLineTool: Sendable {
    /// The package's version, printed by every tool's `--version`.
    public static let packageVersion = "0.34.0"

    /// The tool's name, which starts each of its messages (`coginspect: …`).
    public let name: String

    /// A tool called `name`.
    public init(name: String) {
        self.name = name
    }

    /// The `--version` line; `detail` adds what else is versioned, e.g. the trace format.
    public func versionLine(detail: String? = nil) -> String {
        "\(name) \(Self.packageVersion)" + (detail.map { " (\($0))" } ?? "")
    }

    /// Writes `message` to standard error as `name: message`, control characters escaped: a
    /// message may quote a trace's labels or values.
    public func report(_ message: String) {
        StandardError.write("\(name): \(TerminalText.escape(message))\n")
    }

    /// Writes `name: warning: message` to standard error.
    public func warn(_ message: String) {
        report("warning: \(message)")
    }

    /// Reports `message` and exits with `status`.
    public func fail(_ message: String, status: ExitStatus) -> Never {
        report(message)
        exit(status.rawValue)
    }

    /// Reports a usage error with a pointer to the help, and exits with `ExitStatus.usage`.
    public func fail(_ error: UsageError) -> Never {
        fail("\(error); see \(name) --help", status: .usage)
    }
}
