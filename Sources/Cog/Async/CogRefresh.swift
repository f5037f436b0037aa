/// The handle `refresh` returns: it follows the one generation the refresh started, never a
/// later run, and every awaiter gets the same outcome.
public final class CogRefresh<Value> {
    /// How the refreshed generation ended.
    public enum Outcome: CustomStringConvertible {
        /// It published a value (for a stream: its first element).
        case success(Value)
        /// It published a failure (for a stream: an error before its first element).
        case failure(any Error)
        /// Newer work replaced it before it published.
        case superseded
        /// Its state was released before it published.
        case released

        /// The outcome's name, for comparisons and messages.
        public var name: String {
            switch self {
            case .success: "success"
            case .failure: "failure"
            case .superseded: "superseded"
            case .released: "released"
            }
        }

        public var description: String {
            if case .failure(let error) = self { return "failure(\(error))" }
            return name
        }
    }

    private var resolved: Outcome?
    private var waiters: [CheckedContinuation<Outcome, Never>] = []
    /// The generation this handle follows, once its request started one.
    var generation: Int?

    init() {}

    /// Waits for the outcome (returns at once when it is known).
    public var outcome: Outcome {
        get async {
            if let resolved { return resolved }
            return await withCheckedContinuation { waiters.append($0) }
        }
    }

    /// The outcome if the generation has ended, else nil.
    public var currentOutcome: Outcome? { resolved }

    /// Resolves once; later calls are ignored.
    func resolve(_ outcome: Outcome) {
        guard resolved == nil else { return }
        resolved = outcome
        let waiting = waiters
        waiters.removeAll()
        for waiter in waiting { waiter.resume(returning: outcome) }
    }
}
