import Cog
import CogTesting
import Testing

private let _baseCog = Cog<Int>.Manual(name: "grace.base") { 1 }
private let budget: Duration = .seconds(60)
private let _watchingCog = Cog<Bool>.Manual(name: "grace.watching") { true }

/// How many times a selector ran.
private final class RunCounter {
    var count = 0
}

/// `base × factor`, counting its runs.
private func multipleCog(_ name: String, times factor: Int, counting runs: RunCounter) -> Cog<Int> {
    Cog<Int>(name: name) { c in
        runs.count += 1
        return c[_baseCog] * factor
    }
}

/// A runtime with a 10 s grace on a clock the test moves, and a log of its events.
private func graceRuntime() -> (TestClock, Cogs, EventLog) {
    let clock = TestClock()
    let cogs = Cogs.forTesting(clock: clock, whileObservedGrace: .seconds(10))
    return (clock, cogs, EventLog.attached(to: cogs))
}

/// Moves the clock by `duration` and returns once the runtime has released what expired.
private func advanceUntilReleased(_ clock: TestClock, _ cogs: Cogs, by duration: Duration) async throws {
    let released = MainActorCleanupAcknowledgement()
    cogs.acknowledgeNextAutomaticRelease(with: released)
    clock.advance(by: duration)
    try await released.wait()
}

/// Each unused state waits out its grace on a sleeper of its own on the injected clock, as the
/// public library's lifetime tests count them: a renewal replaces the sleeper, a holder that
/// comes back removes it, and a release removes it.
///
/// The runtime's sleepers are scheduled by MainActor tasks, and parallel tests share the main
/// actor, so a loaded run can take seconds to get to them: the wait's budget is only a bound.
@Suite("Grace sleepers on the injected clock", .timeLimit(.minutes(5)))
struct GraceSleeperTests {
    @Test func repeatedPeeksRenewOneSleeperAndMoveTheDeadline() async throws {
        let runs = RunCounter()
        let tripledCog = multipleCog("grace.tripled", times: 3, counting: runs)
        let (clock, cogs, log) = graceRuntime()
        #expect(cogs.peek(tripledCog) == 3)
        try await clock.waitForScheduledSleep(within: budget)
        #expect(clock.activeSleeperCount == 1)

        clock.advance(by: .seconds(4))
        for _ in 0..<8 {
            #expect(cogs.peek(tripledCog) == 3)
            try await clock.waitForScheduledSleep(within: budget)  // a new sleep in place of the old one
            #expect(clock.activeSleeperCount == 1)
        }
        #expect(clock.maximumActiveSleeperCount == 1)

        clock.advance(by: .seconds(6))  // the first deadline passes: the renewed one holds
        #expect(clock.activeSleeperCount == 1)
        #expect(log.lines(startingWith: "release").isEmpty)

        try await advanceUntilReleased(clock, cogs, by: .seconds(4))
        #expect(log.lines(startingWith: "release") == ["release grace.tripled graceExpired"])
        #expect(clock.activeSleeperCount == 0)
        #expect(runs.count == 1)
    }

    @Test func aColdAsyncPeekAndRefreshesKeepOneRenewableSleeper() async throws {
        let clock = TestClock()
        let work = ControlledWork<Int>()
        let forecastCog = Cog<Int>.Async(default: 0, name: "grace.forecast") { _ in work.makeWork() }
        let cogs = Cogs.forTesting(clock: clock, whileObservedGrace: .seconds(10))
        var starts = work.starts.makeAsyncIterator()
        #expect(cogs.status.peek(forecastCog).isLoading)
        #expect(await starts.next() == 0)
        try await clock.waitForScheduledSleep(within: budget)
        #expect(clock.activeSleeperCount == 1)
        for generation in 1...4 {
            cogs.refresh(forecastCog)
            #expect(await starts.next() == generation)
            try await clock.waitForScheduledSleep(within: budget)
            #expect(clock.activeSleeperCount == 1)
        }
        #expect(clock.maximumActiveSleeperCount == 1)

        try await advanceUntilReleased(clock, cogs, by: .seconds(10))
        #expect(clock.activeSleeperCount == 0)
    }

    @Test func aUIPinEndsTheWindowAndItsSleeper() async throws {
        let pinnedCog = Cog<Int>(name: "grace.pinned") { c in c[_baseCog] + 100 }
        let (clock, cogs, log) = graceRuntime()
        #expect(cogs.peek(pinnedCog) == 101)
        try await clock.waitForScheduledSleep(within: budget)
        let kept = MainActorCleanupAcknowledgement()
        cogs.acknowledgeNextAutomaticReleaseCheck(with: kept)
        #expect(cogs[pinnedCog] == 101)
        #expect(clock.activeSleeperCount == 0, "the pin took the sleeper away")
        try await kept.wait()  // the ended window still reports its decision: kept
        clock.advance(by: .seconds(60))
        #expect(log.lines(startingWith: "release").isEmpty)
        #expect(clock.maximumActiveSleeperCount == 1)
    }

    @Test func aLeaseThatComesBackEndsTheWindowAndLosingItAgainStartsAFullOne() async throws {
        let runs = RunCounter()
        let heldCog = multipleCog("grace.held", times: 7, counting: runs)
        let (clock, cogs, log) = graceRuntime()
        cogs.start([
            ClosureMechanism(name: "Holder") { m in
                m.scope(_watchingCog, name: "watching") { s in
                    s.run(name: "reader") { c in _ = c[heldCog] }
                }
            }
        ])
        #expect(runs.count == 1)
        cogs.turn(_watchingCog, to: false)
        try await clock.waitForScheduledSleep(within: budget)
        #expect(clock.activeSleeperCount == 1)

        clock.advance(by: .seconds(6))
        cogs.turn(_watchingCog, to: true)  // a new reader leases it again
        #expect(clock.activeSleeperCount == 0)

        cogs.turn(_watchingCog, to: false)
        try await clock.waitForScheduledSleep(within: budget)
        clock.advance(by: .seconds(6))  // past the first window's deadline, not the new one's
        #expect(clock.activeSleeperCount == 1)
        #expect(log.lines(startingWith: "release").isEmpty)

        try await advanceUntilReleased(clock, cogs, by: .seconds(4))
        #expect(log.lines(startingWith: "release") == ["release grace.held graceExpired"])
        #expect(runs.count == 1, "held throughout, it never recomputed")
        #expect(clock.maximumActiveSleeperCount == 1)
    }
}
