/// One link of a turn chain: a turn that ran, or a reaction that ran in its flush (and may have
/// asked for the next turn).
public enum CogTurnChainCause: Equatable, Sendable, CustomStringConvertible {
    /// A turn, by name.
    case turn(String)
    /// A reaction, watch or scope run in a turn's flush, by registration name (`fileID:line`
    /// when it was registered without one).
    case reaction(String)

    public var description: String {
        switch self {
        case .turn(let name): "turn \(name)"
        case .reaction(let name): "reaction \(name)"
        }
    }
}

/// What the runtime warned of when a chain of turns ran past the threshold without returning to
/// idle: usually reactions writing back to each other.
public struct CogTurnChainWarning: Equatable, Sendable {
    /// How many turns the chain ran before it returned to idle.
    public let uninterruptedTurnCount: Int
    /// The chain's turns and the reactions between them, in order, at most
    /// `CogTurnChainDiagnostic.causalChainLimit` of them.
    public let causalChain: [CogTurnChainCause]
    /// Whether the chain had more causes than `causalChain` keeps.
    public let causalChainIsTruncated: Bool
}

/// The runtime's record of turn chains: how many ran past the threshold, the last one, and
/// whether the runtime is idle now.
public struct CogTurnChainDiagnostic: Equatable, Sendable {
    /// A chain of more turns than this warns: 64 quiet, 65 warn.
    public static let threshold = 64
    /// How many causes a warning keeps.
    public static let causalChainLimit = 256
    /// How many chains have warned.
    public let warningCount: Int
    /// The newest warning, complete once its chain returned to idle.
    public let lastWarning: CogTurnChainWarning?
    /// Whether no turn runs or waits now.
    public let isIdle: Bool
}

/// The chain being run now: its turns and causes so far, and whether it has warned.
struct TurnChainRecord {
    var turns = 0
    var causes: [CogTurnChainCause] = []
    var isTruncated = false
    var hasWarned = false

    mutating func note(_ cause: CogTurnChainCause) {
        guard causes.count < CogTurnChainDiagnostic.causalChainLimit else {
            isTruncated = true
            return
        }
        causes.append(cause)
    }

    /// Starts the record of the next chain.
    mutating func reset(keepingCapacity: Bool) {
        turns = 0
        causes.removeAll(keepingCapacity: keepingCapacity)
        isTruncated = false
        hasWarned = false
    }

    var warning: CogTurnChainWarning {
        CogTurnChainWarning(uninterruptedTurnCount: turns, causalChain: causes, causalChainIsTruncated: isTruncated)
    }
}

extension Cogs {
    /// The turn-chain record: test support reads it (`turnChainDiagnostic`).
    package var turnChainState: CogTurnChainDiagnostic {
        CogTurnChainDiagnostic(
            warningCount: graph.turnChainWarnings, lastWarning: graph.lastTurnChainWarning,
            isIdle: graph.phase == .idle && graph.queueHead >= graph.queuedTurns.count)
    }
}
