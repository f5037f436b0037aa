import Cog
import CogTesting
import Observation
import Testing

@Observable private final class Profile {
    var givenName = "Ada"
    var familyName = "Lovelace"
    var nickname = "Countess"
}

/// `c.track(model) { … }`: a selector depends on every property its closure reads, each change
/// is one `externalChange` turn, and a run whose closure reads other properties is followed on
/// those, not on the properties an earlier run read.
@Suite("Tracked closure reads", .timeLimit(.minutes(5)))
struct TrackedReadTests {
    /// Changes `profile` through `change`, and waits until the runtime has armed again.
    private func change(_ cogs: Cogs, _ change: () -> Void) async throws {
        let rearmed = MainActorCleanupAcknowledgement()
        cogs.acknowledgeNextExternalObservationRearm(with: rearmed)
        change()
        try await rearmed.wait()
    }

    @Test func everyPropertyTheClosureReadsIsADependency() async throws {
        let profile = Profile()
        var runs = 0
        let fullNameCog = Cog<String>(name: "tracked.fullName") { c in
            runs += 1
            return c.track(profile) { "\($0.givenName) \($0.familyName)" }
        }
        let cogs = Cogs.forTesting()
        var names = cogs.values(of: fullNameCog).makeAsyncIterator()
        #expect(await names.next() == "Ada Lovelace")
        try await change(cogs) { profile.familyName = "Byron" }
        #expect(await names.next() == "Ada Byron")
        try await change(cogs) { profile.givenName = "Augusta" }
        #expect(await names.next() == "Augusta Byron")
        #expect(runs == 3)
        #if DEBUG
            let turns = cogs.debugHistory.entries.filter { $0.event == .turn }.map(\.name)
            #expect(turns.count == 2 && turns.allSatisfy { $0.hasPrefix("c.track(Profile at ") }, "\(turns)")
        #endif
    }

    @Test func aRunIsFollowedOnWhatItsOwnClosureReads() async throws {
        let profile = Profile()
        let _usesNicknameCog = Cog<Bool>.Manual(name: "tracked.usesNickname") { false }
        var runs = 0
        let shownCog = Cog<String>(name: "tracked.shown") { c in
            runs += 1
            let nickname = c[_usesNicknameCog]
            return c.track(profile) { nickname ? $0.nickname : $0.givenName }
        }
        let cogs = Cogs.forTesting()
        var shown = cogs.values(of: shownCog).makeAsyncIterator()
        #expect(await shown.next() == "Ada")
        cogs.turn(_usesNicknameCog, to: true)
        #expect(await shown.next() == "Countess")
        #expect(runs == 2)

        // The first run's closure read the given name; this run's does not.
        profile.givenName = "Augusta"
        try await change(cogs) { profile.nickname = "Enchantress" }
        #expect(await shown.next() == "Enchantress")
        #expect(runs == 3, "the given name, read only by an earlier run, started no run")
        #expect(cogs.peek(shownCog) == "Enchantress")
    }
}
