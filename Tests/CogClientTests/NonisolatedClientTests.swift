import Cog
import CogTesting
import Testing

/// A client's own tests in a target without MainActor default isolation: they reach the runtime
/// through `@MainActor` tests, as such a client would, and use the test helpers and the trait.
@Suite("A nonisolated client", .cogTrace)
struct NonisolatedClientTests {
    @Test @MainActor func declarationsOpsAndReadsWork() {
        let cogs = Cogs.forTesting()
        #expect(cogs[doubledStepsCog] == 0)
        cogs.step()
        cogs.step()
        #expect(cogs[doubledStepsCog] == 4)
        #expect(cogs[cursorCog] == Position(row: 0, column: 2))
        cogs.rename(3, to: "third")
        #expect(cogs[shoutedLabelCog[3]] == "THIRD")
        #expect(cogs[shoutedLabelCog[4]] == "ITEM 4")
    }

    @Test @MainActor func equalWritesOfAClientTypeAreDiscarded() {
        let sightings = Sightings()
        let cogs = Cogs.forTesting(mechanisms: [SightingMechanism(sightings: sightings)])
        cogs.stayPut()
        cogs.step()
        #expect(sightings.rows == [0], "neither an equal write nor a column move changes the row")
    }

    @Test @MainActor func asyncWorkPublishesToAStatusWatch() async {
        let sightings = Sightings()
        let cogs = Cogs.forTesting(mechanisms: [SightingMechanism(sightings: sightings)])
        cogs.step()
        for _ in 0..<1_000 where !(sightings.totals.last?.hasSucceeded ?? false) { await Task.yield() }
        #expect(sightings.totals.last?.value == 10)
    }

    @Test @MainActor func seedingTakesTheRuntimeAndWorksAfterCreationToo() {
        let cogs = Cogs.forTesting(seeding: { $0.seed(_stepCountCog, to: 5) })
        #expect(cogs[doubledStepsCog] == 10)
        cogs.seed(_stepCountCog, to: 7)
        #expect(cogs[doubledStepsCog] == 14)
    }

    @Test @MainActor func statusesReadInNonisolatedCodeAndStreamsTakeASequence() async {
        let sightings = Sightings()
        let cogs = Cogs.forTesting(mechanisms: [SightingMechanism(sightings: sightings)])
        #expect(summary(of: cogs.status.peek(remoteTotalCog)).hasPrefix("pending"))
        _ = await cogs.refresh(countdownCog).outcome
        for _ in 0..<1_000 where cogs.peek(countdownCog) != 1 { await Task.yield() }
        #expect(cogs.peek(countdownCog) == 1, "the last element of the sequence")
        #expect(summary(of: cogs.status.peek(countdownCog)) == "success 1 ok")
    }
}
