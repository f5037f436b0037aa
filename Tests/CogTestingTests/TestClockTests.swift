import CogTesting
import Testing

@Suite("TestClock", .timeLimit(.minutes(5)))
struct TestClockTests {
    @Test func sleepersWakeOnlyWhenTimePassesTheirDeadline() async throws {
        let clock = TestClock()
        let ticks = TickCounter()
        let task = Task {
            for _ in 0..<3 {
                try await clock.sleep(for: .seconds(1))
                await ticks.tick()
            }
        }
        await clock.waitForSleepers(1)
        #expect(await ticks.count == 0)
        clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        await clock.waitForSleepers(1)
        #expect(await ticks.count == 1)
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        try await task.value
        #expect(await ticks.count == 3)
        #expect(clock.now.offset == .seconds(3))
    }

    @Test func cancellingASleeperEndsItsSleepWithCancellation() async {
        let clock = TestClock()
        let task = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.waitForSleepers(1)
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(clock.sleeperCount == 0)
    }

    @Test func aDeadlineAlreadyPassedDoesNotSleep() async throws {
        let clock = TestClock()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: TestClock.Instant(offset: .seconds(2)))
        #expect(clock.sleeperCount == 0)
    }
}

private actor TickCounter {
    var count = 0
    func tick() { count += 1 }
}
