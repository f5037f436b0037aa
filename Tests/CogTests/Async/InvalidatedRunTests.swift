import Cog
import CogTesting
import Testing

/// A result of work whose inputs changed before it finished is stale: nothing reads it, even a
/// consumer that comes back only after the work ended.
@Suite("Results of invalidated runs", .timeLimit(.minutes(1)))
struct InvalidatedRunTests {
    @Test func aReturningConsumerNeverSeesTheResultOfAnInvalidatedColdRun() async throws {
        let work = ControlledWork<String>()
        let _cityCog = Cog<String>.Manual(name: "invalidated.city") { "Oslo" }
        let forecastCog = Cog<String>.Async(default: "none", name: "invalidated.forecast") { c in
            _ = c[_cityCog]
            return work.makeWork()
        }
        let cogs = Cogs.forTesting()
        var starts = work.starts.makeAsyncIterator()
        _ = cogs.peek(forecastCog)  // a cold run nobody keeps reading
        #expect(await starts.next() == 0)
        cogs.turn("move") { w in w[_cityCog] = "Lima" }  // its input changed under it
        let checked = MainActorCleanupAcknowledgement()
        cogs.acknowledgeNextAsyncCompletionCheck(with: checked)
        work.succeed(0, with: "Oslo: rain")
        try await checked.wait()
        #expect(cogs.peek(forecastCog) != "Oslo: rain", "a result computed for Oslo is not Lima's forecast")
        #expect(await starts.next() == 1, "the returning read starts work for the new input")
        work.succeed(1, with: "Lima: sun")
        for _ in 0..<1_000 where cogs.peek(forecastCog) != "Lima: sun" { await Task.yield() }
        #expect(cogs.peek(forecastCog) == "Lima: sun")
    }
}
