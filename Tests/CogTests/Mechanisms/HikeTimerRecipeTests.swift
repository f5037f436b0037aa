import Cog
import CogTesting
import Testing

private let _isLoggingHikeCog = Cog<Bool>.Manual(name: "hike.isLogging") { false }
private let _hikeTimerCog = Cog<Int>.Manual(name: "hike.timer") { 0 }
let hikeTimerCog = _hikeTimerCog.readOnly

extension CogOps {
    fileprivate func startLoggingHike() { turn(_isLoggingHikeCog, to: true) }
    fileprivate func stopLoggingHike() { turn(_isLoggingHikeCog, to: false) }
    fileprivate func resetHikeTimer() { turn(_hikeTimerCog, to: 0) }
    fileprivate func tickHikeTimer() { turn { c in c[_hikeTimerCog] += 1 } }
}

/// The guide's hike timer: a scope over a Bool with a ticking task on an injected clock.
private struct HikeTimerMechanism: Mechanism {
    var clock: any Clock<Duration> = ContinuousClock()

    func operate(_ m: MechanismController) {
        m.scope(_isLoggingHikeCog, name: "hikeTimer") { s in
            s.resetHikeTimer()
            s.task(name: "tick") { [weak s] in
                while true {
                    try await clock.sleep(for: .seconds(1))
                    guard let s else { return }
                    await s.tickHikeTimer()
                }
            }
        }
    }
}

@Suite("Recipe: hike timer", .timeLimit(.minutes(5)))
struct HikeTimerRecipeTests {
    @Test func theTimerTicksWhileLoggingAndStopsWhenTheBoolFalls() async {
        let clock = TestClock()
        let cogs = Cogs.forTesting(mechanisms: [HikeTimerMechanism(clock: clock)])
        #expect(cogs.liveTaskCount == 0)

        cogs.startLoggingHike()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(1)
        #expect(cogs.peek(hikeTimerCog) == 2)

        cogs.stopLoggingHike()
        #expect(cogs.liveTaskCount == 0)
        #expect(clock.sleeperCount == 0, "cancelling the task ends its sleep")
        clock.advance(by: .seconds(5))
        #expect(cogs.peek(hikeTimerCog) == 2)

        cogs.startLoggingHike()
        #expect(cogs.peek(hikeTimerCog) == 0, "opening again runs the body, which resets the timer")
        await clock.waitForSleepers(1)
        #expect(cogs.liveTaskCount == 1)
    }
}
