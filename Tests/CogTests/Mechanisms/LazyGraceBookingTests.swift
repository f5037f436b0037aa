import Cog
import CogTesting
import Testing

private let _leftCog = Cog<Int>.Manual(name: "lazy.left") { 1 }
private let _rightCog = Cog<Int>.Manual(name: "lazy.right") { 2 }
private let budget: Duration = .seconds(60)

/// The test clock learns of a runtime's grace windows only when it is asked (its sleeper
/// counts, a wait, `advance`) or once the MainActor is free, so a test that never asks pays for
/// no booking. What a test sees is what booking every window at once would show.
@Suite("Grace windows booked when the clock is asked", .timeLimit(.minutes(5)))
struct LazyGraceBookingTests {
    /// Three derived states, each peeked (a window opens) and then read by a pinned sum (the
    /// window closes), all before the clock is asked.
    private func threeWindowsOpenedAndClosed() -> (TestClock, Cogs) {
        let clock = TestClock()
        let cogs = Cogs.forTesting(clock: clock, whileObservedGrace: .seconds(10))
        let doubled = Cog<Int>(name: "lazy.doubled") { c in c[_leftCog] * 2 }
        let tripled = Cog<Int>(name: "lazy.tripled") { c in c[_rightCog] * 3 }
        let negated = Cog<Int>(name: "lazy.negated") { c in -c[_leftCog] }
        let sum = Cog<Int>(name: "lazy.sum") { c in c[doubled] + c[tripled] + c[negated] }
        #expect(cogs.peek(doubled) == 2 && cogs.peek(tripled) == 6 && cogs.peek(negated) == -1)
        #expect(cogs[sum] == 7)
        return (clock, cogs)
    }

    @Test func windowsThatClosedBeforeTheClockAskedStillCountAsScheduledSleeps() async throws {
        let (clock, cogs) = threeWindowsOpenedAndClosed()
        #expect(clock.activeSleeperCount == 0, "every window closed when the sum began to hold it")
        #expect(clock.maximumActiveSleeperCount == 3, "all three were open at once")
        for _ in 0..<3 { try await clock.waitForScheduledSleep(within: budget) }
        withExtendedLifetime(cogs) {}
    }

    @Test func anOpenWindowIsASleeperTheMomentTheClockIsAsked() async throws {
        let clock = TestClock()
        let cogs = Cogs.forTesting(clock: clock, whileObservedGrace: .seconds(10))
        let doubled = Cog<Int>(name: "lazy.open") { c in c[_leftCog] * 2 }
        #expect(cogs.peek(doubled) == 2)
        #expect(clock.activeSleeperCount == 1, "asked synchronously, before any task ran")
        #expect(cogs.peek(doubled) == 2)  // a renewal: a sleep of its own in place of the first
        #expect(clock.activeSleeperCount == 1)
        try await clock.waitForScheduledSleep(within: budget)
        try await clock.waitForScheduledSleep(within: budget)
        let released = MainActorCleanupAcknowledgement()
        cogs.acknowledgeNextAutomaticRelease(with: released)
        clock.advance(by: .seconds(10))
        try await released.wait()
        #expect(clock.activeSleeperCount == 0)
    }

    @Test func aClockAskedFromAnotherThreadSeesTheWindowsOnceTheMainActorIsFree() async throws {
        let clock = TestClock()
        let cogs = Cogs.forTesting(clock: clock, whileObservedGrace: .seconds(10))
        let doubled = Cog<Int>(name: "lazy.elsewhere") { c in c[_leftCog] * 2 }
        let tripled = Cog<Int>(name: "lazy.elsewhere2") { c in c[_rightCog] * 3 }
        #expect(cogs.peek(doubled) == 2 && cogs.peek(tripled) == 6)
        // The detached task cannot book the runtime's windows; the runtime books them itself
        // when this test suspends here and frees the MainActor.
        await Task.detached { await clock.waitForSleepers(2) }.value
        #expect(clock.activeSleeperCount == 2)
        withExtendedLifetime(cogs) {}
    }
}
