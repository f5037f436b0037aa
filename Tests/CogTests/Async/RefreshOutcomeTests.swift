import Cog
import CogTesting
import Testing

/// Every `refresh` handle resolves exactly once, whatever state its async value is in: a clean
/// value, one whose dependency re-ran to the same value (a gated re-run), one with work in
/// flight, one refreshed twice in a turn, one released while waiting.
@Suite("Refresh outcomes", .timeLimit(.minutes(5)))
struct RefreshOutcomeTests {
    /// An async value `advice` reading a derived `finished`, over a source `total`.
    private struct Graph {
        let work = ControlledWork<String>()
        let totalCog = Cog<Int>.Manual(name: "refresh.total") { 0 }
        let finishedCog: Cog<Bool>
        let adviceCog: Cog<String>.Async

        init() {
            let totalCog = totalCog
            let finishedCog = Cog<Bool>(name: "refresh.finished") { c in c[totalCog] >= 10 }
            let work = work
            self.finishedCog = finishedCog
            adviceCog = Cog<String>.Async(default: "none", name: "refresh.advice") { c in
                _ = c[finishedCog]
                return work.makeWork()
            }
        }

        func add(_ amount: Int, in cogs: Cogs) {
            cogs.turn("add(\(amount))") { w in w[totalCog] += amount }
        }
    }

    @Test func aRefreshAfterADependencyReRanToTheSameValueResolves() async {
        let graph = Graph()
        let cogs = Cogs.forTesting()
        var starts = graph.work.starts.makeAsyncIterator()
        graph.add(10, in: cogs)
        _ = cogs.peek(graph.adviceCog)
        #expect(await starts.next() == 0)
        graph.add(20, in: cogs)  // `finished` runs again and is still true: advice is only checked
        let handle = cogs.refresh(graph.adviceCog)
        #expect(await starts.next() == 1, "the refresh starts a generation of its own")
        graph.work.succeed(1, with: "done")
        #expect(await handle.outcome.name == "success")
        #expect(handle.currentOutcome?.name == "success")
    }

    @Test func aRefreshWhileAGenerationIsInFlightSupersedesItOnce() async {
        let graph = Graph()
        let cogs = Cogs.forTesting()
        var starts = graph.work.starts.makeAsyncIterator()
        let first = cogs.refresh(graph.adviceCog)
        #expect(await starts.next() == 0)
        let second = cogs.refresh(graph.adviceCog)
        #expect(await starts.next() == 1)
        #expect(await first.outcome.name == "superseded")
        graph.work.succeed(1, with: "fresh")
        #expect(await second.outcome.name == "success")
        graph.work.succeed(0, with: "late")  // a late answer changes neither handle
        #expect(first.currentOutcome?.name == "superseded")
        #expect(second.currentOutcome?.name == "success")
    }

    @Test func twoRefreshesInARowEachResolveOnce() async {
        let graph = Graph()
        let cogs = Cogs.forTesting()
        var starts = graph.work.starts.makeAsyncIterator()
        let first = cogs.refresh(graph.adviceCog)
        let second = cogs.refresh(graph.adviceCog)  // before the first generation could answer
        #expect(await starts.next() == 0)
        #expect(await starts.next() == 1)
        #expect(await first.outcome.name == "superseded", "under .latest the older generation gives way")
        graph.work.succeed(1, with: "one answer")
        #expect(await second.outcome.name == "success")
        graph.work.succeed(0, with: "too late")
        #expect(first.currentOutcome?.name == "superseded", "a handle resolves once")
    }

    @Test func aRefreshAfterAReleaseStartsAgainAndResolves() async throws {
        let graph = Graph()
        let clock = TestClock()
        let cogs = Cogs.forTesting(clock: clock, whileObservedGrace: .seconds(10))
        var starts = graph.work.starts.makeAsyncIterator()
        let before = cogs.refresh(graph.adviceCog)
        #expect(await starts.next() == 0)
        graph.work.succeed(0, with: "first")
        #expect(await before.outcome.name == "success")

        let released = MainActorCleanupAcknowledgement()
        cogs.acknowledgeNextAutomaticRelease(with: released)
        try await clock.waitForScheduledSleep(within: .seconds(60))
        clock.advance(by: .seconds(10))
        try await released.wait()

        let after = cogs.refresh(graph.adviceCog)
        #expect(await starts.next() == 1, "the released value starts over")
        graph.work.succeed(1, with: "second")
        #expect(await after.outcome.name == "success")
        #expect(before.currentOutcome?.name == "success", "the earlier handle kept its one outcome")
    }
}
