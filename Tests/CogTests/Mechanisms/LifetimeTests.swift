import Cog
import CogTesting
import Testing

private let _appCountCog = Cog<Int>.Manual(name: "appCount") { 0 }
private let _draftCog = Cog<String>.Manual(name: "draft", lifetime: .whileObserved(resetToInitial: true)) { "" }
private let draftLengthCog = Cog<Int>(name: "draftLength") { c in c[_draftCog].count }
private let doubledCountCog = Cog<Int>(name: "doubledCount") { c in c[_appCountCog] * 2 }

extension CogOps {
    fileprivate func typeDraft(_ text: String) { turn(_draftCog, to: text) }
}

@Suite("Lifetimes and leases", .timeLimit(.minutes(5)))
struct LifetimeTests {
    @Test func appSourcesLiveForTheRuntimeAndUnusedEphemeralStateIsReleasedAfterGrace() {
        let clock = TestClock()
        let cogs = Cogs.forTesting(clock: clock, grace: .seconds(2))
        let log = EventLog.attached(to: cogs)
        _ = cogs.peek(_appCountCog)
        cogs.typeDraft("hello")
        clock.advance(by: .seconds(1))
        cogs.expireGrace()
        #expect(cogs.peek(_draftCog) == "hello", "a peek renews the window")
        clock.advance(by: .seconds(2))
        cogs.expireGrace()
        #expect(log.lines(startingWith: "release") == ["release draft graceExpired"])
        #expect(log.lines(startingWith: "turn").last == "turn 2 draft grace expiry graceExpiry")
        #expect(cogs.peek(_draftCog) == "", "a later read starts over at the initial value")
        #expect(cogs.peek(_appCountCog) == 0)
        #expect(log.lines(startingWith: "release").count == 1, "app state is never released")
    }

    @Test func aReactionLeaseKeepsStateAndReleaseCascadesToProducersLeftAlone() {
        let clock = TestClock()
        let cogs = Cogs.forTesting(clock: clock, grace: .seconds(1))
        let log = EventLog.attached(to: cogs)
        cogs.start([
            ClosureMechanism(name: "Gate") { m in
                m.scope(_appCountCog.readOnly.isPositive, name: "draftWatch") { s in
                    s.run(name: "length") { c in _ = c[draftLengthCog] }
                }
            }
        ])
        cogs.turn { c in c[_appCountCog] = 1 }
        clock.advance(by: .seconds(5))
        cogs.expireGrace()
        #expect(log.lines(startingWith: "release").isEmpty, "the reaction's lease holds both states")

        cogs.turn { c in c[_appCountCog] = 0 }
        clock.advance(by: .seconds(1))
        cogs.expireGrace()
        #expect(log.lines(startingWith: "release") == ["release draftLength graceExpired", "release draft cascade"])
    }

    @Test func aUIReadPinsStateForTheRuntimesLife() {
        let clock = TestClock()
        let cogs = Cogs.forTesting(clock: clock, grace: .seconds(1))
        let log = EventLog.attached(to: cogs)
        _ = cogs[doubledCountCog]
        clock.advance(by: .seconds(10))
        cogs.expireGrace()
        #expect(log.lines(startingWith: "release").isEmpty)
    }

    @Test func releasingAnAsyncStateCancelsItsWorkAndResolvesHandlesAsReleased() async {
        let clock = TestClock()
        let work = ControlledWork<Int>()
        let quoteCog = Cog<Int>.Async(default: 0, name: "quote") { _ in work.run() }
        let cogs = Cogs.forTesting(clock: clock, grace: .seconds(1))
        let handle = cogs.refresh(quoteCog)
        let run = await work.nextStart()
        clock.advance(by: .seconds(1))
        cogs.expireGrace()
        #expect(run.isCancelled)
        #expect(await handle.outcome.name == "released")
        await run.succeed(5)
        #expect(cogs.status.peek(quoteCog).value == 0, "a late result cannot reach a recreated state")
    }

    @Test func discardRefusesAppStateAndLeavesAStateInUseAlone() {
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        let diagnostics = cogs.collectingDiagnostics {
            cogs.discard(_appCountCog)
        }
        #expect(
            diagnostics.map(\.message) == [
                "cannot discard 'appCount': it lives for the app; declare it lifetime: "
                    + ".whileObserved(resetToInitial: true) to release it"
            ])
        cogs.typeDraft("kept")
        cogs.start([
            ClosureMechanism(name: "Keeper") { m in
                m.watch(_draftCog, name: "draft") { _, _ in }
            }
        ])
        cogs.discard(_draftCog)
        #expect(cogs.peek(_draftCog) == "kept")
        #expect(log.lines(startingWith: "drop") == ["drop discard draft: 'draft' is still in use"])
    }

    @Test func discardingAnAutomaticStateRecomputesItOnTheNextRead() {
        var runs = 0
        let countedCog = Cog<Int>(name: "counted") { c in
            runs += 1
            return c[_appCountCog] + 1
        }
        let cogs = Cogs.forTesting()
        _ = cogs.peek(countedCog)
        cogs.discard(countedCog)
        _ = cogs.peek(countedCog)
        #expect(runs == 2)
    }
}

extension Cog<Int>.Projection {
    /// Whether the count is above zero, as a derived Bool for a scope.
    fileprivate var isPositive: Cog<Bool> {
        let count = self
        return Cog<Bool>(name: "appCount.isPositive") { c in c[count] > 0 }
    }
}
