import Cog
import CogTesting
import Testing

private struct Outage: Error {}

/// Controlled work and streams driven by generation number, the public library's spelling: the
/// test learns a generation started from `starts` and completes it by number.
@Suite("Generation-indexed controlled work", .timeLimit(.minutes(5)))
struct GenerationIndexedWorkTests {
    /// Yields until `condition` holds (at most a few thousand times): the completion calls do not
    /// wait for the runtime, so a test waits for what it expects to see.
    private func settle(_ condition: () -> Bool) async {
        for _ in 0..<5_000 where !condition() { await Task.yield() }
    }

    @Test func aStartedGenerationCompletesByNumberAndAStaleOneIsRejected() async throws {
        let work = ControlledWork<Int>()
        let _queryCog = Cog<String>.Manual(name: "generations.query") { "a" }
        let resultCog = Cog<Int>.Async(default: 0, name: "generations.result") { c in
            _ = c[_queryCog]
            return work.makeWork()
        }
        let cogs = Cogs.forTesting()
        var starts = work.starts.makeAsyncIterator()
        _ = cogs[resultCog]  // a UI read keeps it live, so the retype starts new work
        #expect(await starts.next() == 0)
        cogs.turn("retype") { w in w[_queryCog] = "ab" }
        #expect(await starts.next() == 1)
        // Superseded by the retype, generation 0 still waits: its late result is handed over
        // and rejected.
        let staleChecked = MainActorCleanupAcknowledgement()
        cogs.acknowledgeNextAsyncCompletionCheck(with: staleChecked)
        work.succeed(0, with: 10)
        try await staleChecked.wait()
        #expect(cogs.peek(resultCog) == 0)
        #expect(cogs.status.peek(resultCog).kind == .pending)
        work.succeed(1, with: 20)
        await settle { cogs.peek(resultCog) == 20 }
        #expect(cogs.peek(resultCog) == 20)
        work.succeed(1, with: 30)  // already completed: does nothing
        await Task.yield()
        #expect(cogs.peek(resultCog) == 20)
    }

    @Test func aFailedGenerationPublishesAFailureThatKeepsTheValue() async {
        let work = ControlledWork<Int>()
        let resultCog = Cog<Int>.Async(default: 7, name: "generations.failing") { _ in work.makeWork() }
        let cogs = Cogs.forTesting()
        var starts = work.starts.makeAsyncIterator()
        _ = cogs.peek(resultCog)
        #expect(await starts.next() == 0)
        work.fail(0, with: Outage())
        await settle { cogs.status.peek(resultCog).kind == .failure }
        #expect(cogs.status.peek(resultCog).kind == .failure)
        #expect(cogs.peek(resultCog) == 7)
    }

    @Test func streamGenerationsBufferEarlyElementsAndCountSelectorRuns() async {
        let readings = ControlledStream<Int>()
        let readingCog = Cog<Int>.Async(default: -1, name: "generations.reading") { _ in readings.makeWork() }
        let cogs = Cogs.forTesting()
        _ = cogs.peek(readingCog)
        #expect(readings.generationCount == 1)
        readings.yield(5, to: 0)  // may come before the runtime starts reading: it is kept
        var starts = readings.starts.makeAsyncIterator()
        #expect(await starts.next() == 0)
        await settle { cogs.peek(readingCog) == 5 }
        readings.yield(6, to: 0)
        await settle { cogs.peek(readingCog) == 6 }
        #expect(cogs.peek(readingCog) == 6)
        readings.finish(0)
        for _ in 0..<100 { await Task.yield() }
        #expect(readings.generationCount == 1, "a natural end starts no new generation")
        #expect(cogs.status.peek(readingCog).kind == .success)
    }
}
