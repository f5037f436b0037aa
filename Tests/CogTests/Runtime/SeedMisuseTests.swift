import Cog
import CogTesting
import Testing

private let _seedCountCog = Cog<Int>.Manual(name: "seedMisuse.count") { 0 }
private let seedCountCog = _seedCountCog.readOnly

/// A mechanism whose reaction seeds once `count` reaches 1: a seed from inside a flush.
private struct SeedingMechanism: Mechanism {
    let seed: @MainActor () -> Void

    func operate(_ m: MechanismController) {
        let seed = seed
        m.run(name: "seeder") { c in
            guard c[seedCountCog] == 1 else { return }
            seed()
        }
    }
}

/// `seed(_:to:)` is idle test setup: called inside a turn, a selector or a reaction it stops
/// with a diagnostic that says so and what to do, and seeds nothing.
@Suite("Seeding outside idle setup")
struct SeedMisuseTests {
    private func expectSeedMisuse(_ diagnostics: [CogDiagnostic], place: String) {
        #expect(diagnostics.map(\.kind) == [.seedMisuse])
        let message = diagnostics.first?.message ?? ""
        #expect(message.contains("idle test setup"), "\(message)")
        #expect(message.contains("'seedMisuse.count'"), "\(message)")
        #expect(message.contains(place), "\(message)")
    }

    @Test func seedingInsideATurnBodyIsRefused() {
        let cogs = Cogs.forTesting()
        let diagnostics = cogs.collectingDiagnostics {
            cogs.turn("body") { _ in cogs.seed(_seedCountCog, to: 7) }
        }
        expectSeedMisuse(diagnostics, place: "inside a turn's body")
        #expect(cogs[seedCountCog] == 0)
    }

    @Test func seedingFromASelectorIsRefused() {
        let cogs = Cogs.forTesting()
        let sneaky = Cog<Int>(name: "seedMisuse.sneaky") { c in
            cogs.seed(_seedCountCog, to: 7)
            return c[seedCountCog]
        }
        let diagnostics = cogs.collectingDiagnostics { _ = cogs.peek(sneaky) }
        expectSeedMisuse(diagnostics, place: "from the selector of 'seedMisuse.sneaky'")
    }

    @Test func seedingFromAReactionIsRefused() {
        var runtime: Cogs?
        let cogs = Cogs.forTesting(mechanisms: [SeedingMechanism { runtime?.seed(_seedCountCog, to: 7) }])
        runtime = cogs
        let diagnostics = cogs.collectingDiagnostics { cogs.turn("wake") { c in c[_seedCountCog] = 1 } }
        expectSeedMisuse(diagnostics, place: "from the reaction")
        #expect(cogs[seedCountCog] == 1)
    }

    @Test func seedingWhileIdleStillWorks() {
        let cogs = Cogs.forTesting(seeding: { $0.seed(_seedCountCog, to: 3) })
        #expect(cogs[seedCountCog] == 3)
        let diagnostics = cogs.collectingDiagnostics { cogs.seed(_seedCountCog, to: 4) }
        #expect(diagnostics.isEmpty)
        #expect(cogs[seedCountCog] == 4)
    }
}
