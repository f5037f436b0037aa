import CogTesting
import Testing

/// The public library's spellings of the test clock: waiting for a sleep to be scheduled, the
/// most sleepers at once, and finishing the clock.
@Suite("TestClock schedules and finish", .timeLimit(.minutes(5)))
struct TestClockScheduleTests {
    @Test func aWaitTakesASleepScheduledBeforeOrAfterIt() async throws {
        let clock = TestClock()
        let early = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(1)
        try await clock.waitForScheduledSleep()  // the sleep that came before the wait
        let waiting = Task { try await clock.waitForScheduledSleep() }
        let late = Task { try await clock.sleep(for: .seconds(2)) }
        try await waiting.value  // the sleep that came after
        #expect(clock.activeSleeperCount == 2)
        #expect(clock.maximumActiveSleeperCount == 2)
        clock.advance(by: .seconds(2))
        try await early.value
        try await late.value
        #expect(clock.activeSleeperCount == 0)
        #expect(clock.maximumActiveSleeperCount == 2, "the high-water mark stays")
    }

    @Test func aWaitWithNoSleepRunsOutOfBudget() async {
        let clock = TestClock()
        await #expect(throws: TestClock.WaitTimeout.self) {
            try await clock.waitForScheduledSleep(within: .milliseconds(20))
        }
    }

    @Test func finishingCancelsSleepersAndRefusesNewOnes() async {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(1)
        clock.finish()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        await #expect(throws: CancellationError.self) { try await clock.sleep(for: .seconds(1)) }
        clock.finish()
        #expect(clock.activeSleeperCount == 0)
    }
}
