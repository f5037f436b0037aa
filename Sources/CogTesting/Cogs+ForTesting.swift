import Cog

extension Cogs {
    /// A fresh, isolated runtime for one test or preview: seeds first, then starts `mechanisms`.
    /// It never claims the production slot, so any number can exist in one process.
    ///
    /// - Parameters:
    ///   - seeding: Places source values with no turn, notice or reaction, before any mechanism.
    ///   - mechanisms: The mechanisms under test, started in array order.
    /// - Returns: The runtime; keep one per test.
    public static func forTesting(
        seeding: (CogSeeder) -> Void = { _ in }, mechanisms: [any Mechanism] = []
    ) -> Cogs {
        let cogs = Cogs()
        seeding(CogSeeder(cogs: cogs))
        cogs.start(mechanisms)
        return cogs
    }

    /// Runs `body` against a runtime whose diagnostics are collected instead of trapping, and
    /// returns them: the seam that lets a test inspect a cycle or a misuse without crashing.
    ///
    /// After a diagnostic the runtime recovers the way production cannot: a refused write is
    /// dropped and a cyclic read returns the state's previous value.
    public func collectingDiagnostics(_ body: () -> Void) -> [CogDiagnostic] {
        var collected: [CogDiagnostic] = []
        let previous = diagnosticHandler
        diagnosticHandler = { collected.append($0) }
        defer { diagnosticHandler = previous }
        body()
        return collected
    }
}

/// Runs `body` with the process's production runtime really assembled, then releases the slot,
/// so a test can check the app's real assembly. Synchronous: no other test can see the install.
///
/// - Parameters:
///   - mechanisms: The app's mechanisms, as the entry point passes them.
///   - body: Checks the assembled runtime.
public func withAssembledCogs<Result>(
    mechanisms: [any Mechanism] = [], _ body: (Cogs) throws -> Result
) rethrows -> Result {
    let cogs = Cogs.assemble(mechanisms: mechanisms)
    defer { Cogs.resetAssembly() }
    return try body(cogs)
}
