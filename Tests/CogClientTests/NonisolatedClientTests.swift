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

/// Statuses are `Sendable` when their values are: a status watch sends each `(old:, new:)` pair
/// through an `AsyncStream` to a task of another isolation, as client tests do.
@Suite("Statuses across tasks")
struct StatusesAcrossTasksTests {
    @Test @MainActor func aStatusWatchSendsItsPairsToAnotherTask() async {
        let (pairs, continuation) = AsyncStream.makeStream(of: (old: CogStatus<Int>, new: CogStatus<Int>).self)
        let (cogs, controller) = Cogs.forTestingWithController()
        controller.status.watch(remoteTotalCog, initial: .run, name: "total") { old, new in
            continuation.yield((old: old, new: new))
        }
        let reader = Task.detached { () -> [CogStatus<Int>.Kind] in
            var kinds: [CogStatus<Int>.Kind] = []
            for await pair in pairs {
                kinds.append(pair.new.kind)
                if pair.new.hasSucceeded { break }
            }
            return kinds
        }
        cogs.step()
        let kinds = await reader.value
        #expect(kinds.first == .pending)
        #expect(kinds.last == .success)
        continuation.finish()
    }
}
