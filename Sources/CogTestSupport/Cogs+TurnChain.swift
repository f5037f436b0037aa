public import Cog

extension Cogs {
    /// The runtime's record of turn chains, as the public library's test support reads it: how
    /// many chains ran past `CogTurnChainDiagnostic.threshold` turns without returning to idle
    /// (usually reactions writing back to each other), the newest one's turns and reactions, and
    /// whether the runtime is idle now.
    public var turnChainDiagnostic: CogTurnChainDiagnostic { turnChainState }
}
