import Cog
import CogTesting
import Testing

/// A result of work whose inputs changed before it finished is stale: nothing reads it, even a
/// consumer that comes back only after the work ended.
@Suite("Results of invalidated runs", .timeLimit(.minutes(5)))
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

/// What a status watch saw.
@MainActor private final class StatusSightings {
    var kinds: [String] = []
}

@Suite("Replacing in-flight work", .timeLimit(.minutes(5)))
struct ReplacementStatusTests {
    @Test func aReplacementsPendingIsAStatusChangeOfItsOwn() async {
        let work = ControlledWork<Int>()
        let totalCog = Cog<Int>.Async(default: 0, name: "replacement.total") { _ in work.makeWork() }
        let seen = StatusSightings()
        let watcher = ClosureMechanism(name: "Watcher") { m in
            m.watch(status: totalCog, name: "status") { old, new in
                seen.kinds.append("\(old.kind.rawValue)->\(new.kind.rawValue)")
            }
        }
        let cogs = Cogs.forTesting(mechanisms: [watcher])
        var starts = work.starts.makeAsyncIterator()
        #expect(await starts.next() == 0)
        #expect(seen.kinds.isEmpty, "the first start's pending is no change from the default pending")
        cogs.refresh(totalCog)  // replaces generation 0 while it is in flight
        #expect(await starts.next() == 1)
        for _ in 0..<100 where seen.kinds.isEmpty { await Task.yield() }
        #expect(seen.kinds == ["pending->pending"], "the replacement's pending reaches status readers")
        work.succeed(1, with: 5)
        for _ in 0..<1_000 where seen.kinds.count < 2 { await Task.yield() }
        #expect(seen.kinds == ["pending->pending", "pending->success"])
    }
}
