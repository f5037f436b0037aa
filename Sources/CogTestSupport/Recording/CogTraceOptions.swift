import Cog
public import Foundation

/// How a test's runtimes are recorded: how much history to keep, what to redact, when to write
/// the trace and where. Every field can also be set from the environment, so CI can change it
/// without touching test code.
nonisolated public struct CogTraceOptions: Sendable, Equatable {
    /// When a test's trace is written.
    public enum Policy: String, Sendable {
        /// Only when the test fails (the default).
        case failures
        /// After every test, passing or not.
        case always
        /// Never: no recorder is attached.
        case off
    }

    /// How many turns each runtime's recorder keeps (older ones are evicted and counted).
    public var capacity: Int
    /// Label patterns whose values are recorded as redacted, e.g. `auth.*`.
    public var redactedLabels: [String]
    /// When traces are written.
    public var policy: Policy
    /// Where traces go; relative paths are from the current directory.
    public var directory: String

    /// The default directory, inside the build folder SwiftPM already ignores.
    public static let defaultDirectory = ".build/cog-traces"

    /// Options in code; `overridden(by:)` lays the environment over them.
    public init(
        capacity: Int = 10_000, redactedLabels: [String] = [], policy: Policy = .failures,
        directory: String = CogTraceOptions.defaultDirectory
    ) {
        self.capacity = capacity
        self.redactedLabels = redactedLabels
        self.policy = policy
        self.directory = directory
    }

    /// These options with what the environment says laid over them: `COG_TRACE` (`failures`,
    /// `always` or `off`), `COG_TRACE_DIR`, `COG_TRACE_CAPACITY` and `COG_TRACE_REDACT` (comma
    /// separated patterns, added to the ones in code). Values that do not parse are ignored with
    /// a line on standard error.
    public func overridden(by environment: [String: String] = ProcessInfo.processInfo.environment) -> CogTraceOptions {
        var options = self
        if let text = environment["COG_TRACE"] {
            if let policy = Policy(rawValue: text.lowercased()) {
                options.policy = policy
            } else {
                Self.warn("COG_TRACE='\(text)' is not failures, always or off; keeping \(policy.rawValue)")
            }
        }
        if let directory = environment["COG_TRACE_DIR"], !directory.isEmpty { options.directory = directory }
        if let text = environment["COG_TRACE_CAPACITY"] {
            if let capacity = Int(text), capacity > 0 {
                options.capacity = capacity
            } else {
                Self.warn("COG_TRACE_CAPACITY='\(text)' is not a positive number; keeping \(capacity)")
            }
        }
        if let patterns = environment["COG_TRACE_REDACT"] {
            options.redactedLabels += patterns.split(separator: ",").map {
                String($0).trimmingCharacters(in: .whitespaces)
            }
        }
        return options
    }

    private static func warn(_ message: String) {
        RuntimeStandardError.write("cog-trace: \(message)\n")
    }
}
