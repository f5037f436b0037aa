/// A failure the runtime detected: a cycle, a write during a computation, a writer used after its
/// turn, a misuse of assembly. In production every diagnostic traps with its message; a test
/// harness can intercept them instead (see `CogTesting`).
public struct CogDiagnostic: Error, CustomStringConvertible, Sendable, Equatable, Codable {
    /// What went wrong, for code that branches on it.
    public enum Kind: String, Sendable, Codable {
        /// A state read itself through its own dependencies.
        case cycle
        /// A turn was requested while an automatic selector was running.
        case writeDuringComputation
        /// A writer was used after its turn had ended.
        case staleWriter
        /// `Cogs.assemble(mechanisms:)` was called a second time in this process.
        case secondAssembly
        /// Two mechanisms share one name.
        case duplicateMechanism
        /// A declaration was configured in a way Cog cannot honour.
        case invalidDeclaration
        /// A retired scope's controller was asked to read, refresh or discard.
        case retiredController
        /// `discard` named a state that cannot be released.
        case invalidDiscard
        /// A scope over a collection saw one identity twice.
        case duplicateScopeIdentity
        /// More than 64 turns ran before the runtime returned to idle.
        case runawayChain
        /// A read had to compute more than 128 never-computed states inside each other.
        case coldNesting
        /// `seed(_:to:)` was called inside a turn, a selector or a reaction: it is for idle setup.
        case seedMisuse
    }

    /// What went wrong.
    public let kind: Kind
    /// A short lowercase message naming the states involved.
    public let message: String
    /// The keyed path of states involved, outermost first (for a cycle it starts and ends with the
    /// same state).
    public let path: [String]

    /// Creates a diagnostic; the runtime makes these, tests compare them.
    public init(kind: Kind, message: String, path: [String] = []) {
        self.kind = kind
        self.message = message
        self.path = path
    }

    public var description: String { message }

    /// What the runtime prints when it stops for this failure: `Cog: message`; a cycle's message
    /// (`Cog dependency cycle: a -> b -> a.`) already names Cog.
    var trapText: String { kind == .cycle ? message : "Cog: \(message)" }
}

extension Graph {
    /// Reports a failure: to the probe, then to a test's diagnostic handler, or else traps.
    func fail(_ kind: CogDiagnostic.Kind, _ message: String, path: [String] = []) {
        let diagnostic = CogDiagnostic(kind: kind, message: message, path: path)
        probe?.record(.diagnostic(diagnostic))
        guard let diagnosticHandler else { fatalError(diagnostic.trapText) }
        diagnosticHandler(diagnostic)
    }

    /// Reports a problem that does not stop the runtime: to the probe, then to a test's handler,
    /// or else to standard error.
    func warn(_ kind: CogDiagnostic.Kind, _ message: String, path: [String] = []) {
        let diagnostic = CogDiagnostic(kind: kind, message: message, path: path)
        probe?.record(.diagnostic(diagnostic))
        if let diagnosticHandler {
            diagnosticHandler(diagnostic)
        } else {
            RuntimeStandardError.write("Cog warning: \(message)\n")
        }
    }

    /// The keyed path of the selectors running now, outermost first.
    var runningPath: [String] {
        trackingStack.map(\.label)
    }
}
