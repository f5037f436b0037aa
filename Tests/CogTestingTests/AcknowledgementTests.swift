import Cog
import CogTesting
import Observation
import Testing

@Observable final class Thermostat {
    var target = 20
}

/// The one-shot acknowledgements: a test waits for a definite signal from the runtime's
/// MainActor work instead of sleeping or polling.
@Suite("Acknowledgement hooks", .timeLimit(.minutes(5)))
struct AcknowledgementTests {
    @Test func anAsyncResultSignalsOnceItsGenerationWasChecked() async throws {
        let work = ControlledWork<Int>()
        let totalCog = Cog<Int>.Async(default: 0, name: "ack.total") { _ in work.makeWork() }
        let cogs = Cogs.forTesting()
        var starts = work.starts.makeAsyncIterator()
        _ = cogs[totalCog]
        #expect(await starts.next() == 0)
        let checked = MainActorCleanupAcknowledgement()
        cogs.acknowledgeNextAsyncCompletionCheck(with: checked)
        work.succeed(0, with: 42)
        try await checked.wait()
        #expect(checked.hasBeenAcknowledged)
        #expect(cogs.peek(totalCog) == 42, "published by the time the signal came")
    }

    @Test func anExpiredGraceSignalsItsCheckAndItsRelease() async throws {
        let clock = TestClock()
        let _baseCog = Cog<Int>.Manual(name: "ack.base") { 1 }
        let derivedCog = Cog<Int>(name: "ack.derived") { c in c[_baseCog] + 1 }
        let cogs = Cogs.forTesting(clock: clock, whileObservedGrace: .seconds(5))
        #expect(cogs.peek(derivedCog) == 2)
        let statesBefore = cogs.liveStateCount
        let checked = MainActorCleanupAcknowledgement()
        let released = MainActorCleanupAcknowledgement()
        cogs.acknowledgeNextAutomaticReleaseCheck(with: checked)
        cogs.acknowledgeNextAutomaticRelease(with: released)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        try await checked.wait()
        try await released.wait()
        #expect(cogs.liveStateCount < statesBefore, "the derived state is gone")
    }

    @Test func aKeptStateSignalsItsCheckWithoutARelease() async throws {
        let clock = TestClock()
        let _baseCog = Cog<Int>.Manual(name: "ack.keptBase") { 1 }
        let keptCog = Cog<Int>(name: "ack.kept") { c in c[_baseCog] * 10 }
        let cogs = Cogs.forTesting(clock: clock, whileObservedGrace: .seconds(5))
        #expect(cogs.peek(keptCog) == 10)
        await clock.waitForSleepers(1)  // its grace window is open
        #expect(cogs[keptCog] == 10)  // and a UI read now keeps it
        let checked = MainActorCleanupAcknowledgement()
        let released = MainActorCleanupAcknowledgement()
        cogs.acknowledgeNextAutomaticReleaseCheck(with: checked)
        cogs.acknowledgeNextAutomaticRelease(with: released)
        clock.advance(by: .seconds(5))
        try await checked.wait()
        #expect(!released.hasBeenAcknowledged)
        #expect(cogs.peek(keptCog) == 10)
    }

    @Test func droppingTheRuntimeSignalsItsTeardown() async throws {
        let teardown = MainActorCleanupAcknowledgement()
        do {
            let cogs = Cogs.forTesting()
            cogs.acknowledgeDeinitCleanup(with: teardown)
        }
        try await teardown.wait()
        #expect(teardown.hasBeenAcknowledged)
    }

    @Test func aTrackedPropertySignalsOnceObservationIsArmedAgain() async throws {
        let thermostat = Thermostat()
        let targetCog = Cog<Int>(name: "ack.target") { c in c.track(thermostat, \.target, name: "thermostat.target") }
        let cogs = Cogs.forTesting()
        #expect(cogs[targetCog] == 20)
        let first = MainActorCleanupAcknowledgement()
        cogs.acknowledgeNextExternalObservationRearm(with: first)
        thermostat.target = 22
        try await first.wait()
        #expect(cogs.peek(targetCog) == 22)
        let second = MainActorCleanupAcknowledgement()
        cogs.acknowledgeNextExternalObservationRearm(with: second)
        thermostat.target = 18
        try await second.wait()
        #expect(cogs.peek(targetCog) == 18)
    }

    /// `externalObservationTracking: .legacy` is the public library's way to force its one-shot
    /// path; here every runtime takes that path, so either choice tracks and re-arms alike.
    @Test(arguments: [ExternalObservationTrackingForTesting.automatic, .legacy])
    func eitherTrackingChoiceFollowsAnObservableAndReArms(
        _ tracking: ExternalObservationTrackingForTesting
    )
        async throws
    {
        let thermostat = Thermostat()
        let targetCog = Cog<Int>(name: "ack.choice") { c in c.track(thermostat, \.target, name: "thermostat.target") }
        let (cogs, _) = Cogs.forTestingWithController(externalObservationTracking: tracking)
        var values = cogs.values(of: targetCog).makeAsyncIterator()
        #expect(await values.next() == 20)
        for target in [23, 17] {
            let rearmed = MainActorCleanupAcknowledgement()
            cogs.acknowledgeNextExternalObservationRearm(with: rearmed)
            thermostat.target = target
            try await rearmed.wait()
            #expect(await values.next() == target)
        }
    }
}
