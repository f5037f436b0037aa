import Cog
import CogTesting
import Testing

/// A forecast whose work announces its cancellation.
@MainActor private final class CancellableWork {
    let starts: AsyncStream<Int>
    let cancellations: AsyncStream<Int>
    private let started: AsyncStream<Int>.Continuation
    private let cancelled: AsyncStream<Int>.Continuation
    private var waiting: [Int: CheckedContinuation<Int, Never>] = [:]
    private var made = 0

    init() {
        (starts, started) = AsyncStream.makeStream(of: Int.self)
        (cancellations, cancelled) = AsyncStream.makeStream(of: Int.self)
    }

    func makeWork() -> Work<Int> {
        let number = made
        made += 1
        let started = started
        let cancelled = cancelled
        return .run {
            await withTaskCancellationHandler {
                started.yield(number)
                return await withCheckedContinuation { self.waiting[number] = $0 }
            } onCancel: {
                cancelled.yield(number)
            }
        }
    }

    /// Returns `value` from run `number` even if it was cancelled: a late result.
    func finish(_ number: Int, with value: Int) {
        waiting.removeValue(forKey: number)?.resume(returning: value)
    }
}

/// Releasing a while-observed async state whose work is still in flight cancels that work,
/// resolves an outstanding refresh as released, and rejects the result if it comes anyway.
@Suite("Release cancels pending work", .timeLimit(.minutes(5)))
struct ReleaseCancellationTests {
    @Test func aReleasedStateCancelsItsWorkAndRejectsTheLateResult() async throws {
        let clock = TestClock()
        let (cogs, controller) = Cogs.forTestingWithController(clock: clock, whileObservedGrace: .seconds(10))
        let work = CancellableWork()
        let forecastCog = Cog<Int>.Async(default: 0, name: "release.forecast") { _ in work.makeWork() }
        let watchingCog = Cog<Bool>.Manual(name: "release.watching") { true }
        let refresh = cogs.refresh(forecastCog)
        controller.whenever(watchingCog) { scope in
            scope.run(name: "reader") { c in _ = c[forecastCog] }
        }
        var starts = work.starts.makeAsyncIterator()
        var cancellations = work.cancellations.makeAsyncIterator()
        #expect(await starts.next() == 0)

        let released = MainActorCleanupAcknowledgement()
        cogs.acknowledgeNextAutomaticRelease(with: released)
        cogs.turn(watchingCog, to: false)
        try await clock.waitForScheduledSleep(within: .seconds(60))
        clock.advance(by: .seconds(10))
        try await released.wait()
        #expect(await cancellations.next() == 0, "the release cancelled the work in flight")
        #expect(await refresh.outcome.name == "released")

        let checked = MainActorCleanupAcknowledgement()
        cogs.acknowledgeNextAsyncCompletionCheck(with: checked)
        work.finish(0, with: 100)
        try await checked.wait()
        #if DEBUG
            let resultTurns = cogs.debugHistory.entries.filter {
                $0.event == .turn && ["release.forecast success", "release.forecast failure"].contains($0.name)
            }
            #expect(resultTurns.isEmpty, "the late result started no turn")
        #endif
        #expect(cogs.status.peek(forecastCog).value == 0, "a read after release starts afresh")
    }

    /// The cold `refresh` opens a grace window that the scope closes before the MainActor is free;
    /// the test clock still counts that window's sleep, then the release's, as the public library
    /// schedules them (its ASYNC-13 waits for both before moving the clock).
    @Test func aWindowClosedBeforeItsSleeperRanStillCountsAsAScheduledSleep() async throws {
        let clock = TestClock()
        let (cogs, controller) = Cogs.forTestingWithController(clock: clock, whileObservedGrace: .seconds(10))
        let work = CancellableWork()
        let forecastCog = Cog<Int>.Async(default: 0, name: "release.booked") { _ in work.makeWork() }
        let watchingCog = Cog<Bool>.Manual(name: "release.bookedWatching") { true }
        let refresh = cogs.refresh(forecastCog)
        #expect(clock.activeSleeperCount == 1, "the refresh's window is a sleeper as soon as the clock is asked")
        controller.whenever(watchingCog) { scope in
            scope.run(name: "reader") { c in _ = c[forecastCog] }
        }
        #expect(clock.activeSleeperCount == 0, "the scope's hold withdrew it")
        var starts = work.starts.makeAsyncIterator()
        #expect(await starts.next() == 0)

        let released = MainActorCleanupAcknowledgement()
        cogs.acknowledgeNextAutomaticRelease(with: released)
        cogs.turn(watchingCog, to: false)
        try await clock.waitForScheduledSleep(within: .seconds(60))
        try await clock.waitForScheduledSleep(within: .seconds(60))
        #expect(clock.maximumActiveSleeperCount == 1)
        clock.advance(by: .seconds(10))
        try await released.wait()
        #expect(await refresh.outcome.name == "released")
        #expect(clock.activeSleeperCount == 0)
    }
}
