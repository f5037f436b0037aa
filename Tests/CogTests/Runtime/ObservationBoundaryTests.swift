import Cog
import CogTesting
import Observation
import Testing

private let _firstNameCog = Cog<String>.Manual(name: "firstName") { "Ada" }
private let _lastNameCog = Cog<String>.Manual(name: "lastName") { "Lovelace" }
private let nameLengthCog = Cog<Int>(name: "nameLength") { c in c[_firstNameCog].count }

@Suite("Observation boundary")
struct ObservationBoundaryTests {
    @Test func aReaderIsNotifiedOnlyForTheStatesItRead() {
        let cogs = Cogs.forTesting()
        let spy = ObservationSpy { _ = cogs[_firstNameCog] }
        cogs.turn { c in c[_lastNameCog] = "Byron" }
        #expect(spy.changes == 0)
        cogs.turn { c in c[_firstNameCog] = "Augusta" }
        #expect(spy.changes == 1)
    }

    @Test func aChangedStateIsNotifiedOncePerTurn() {
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        let spy = ObservationSpy {
            _ = cogs[_firstNameCog]
            _ = cogs[_lastNameCog]
            _ = cogs[nameLengthCog]
        }
        cogs.turn { c in
            c[_firstNameCog] = "Grace"
            c[_lastNameCog] = "Hopper"
            c[_firstNameCog] = "Edsger"
        }
        #expect(spy.changes == 1)
        #expect(log.lines(startingWith: "notice") == ["notice firstName", "notice nameLength", "notice lastName"])
    }

    @Test func equalValuesNotifyNobody() {
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        let spy = ObservationSpy { _ = cogs[nameLengthCog] }
        cogs.turn { c in c[_firstNameCog] = "Bob" }
        #expect(spy.changes == 0)
        #expect(log.lines(startingWith: "notice").isEmpty)
        cogs.turn { c in c[_firstNameCog] = "Grace" }
        #expect(spy.changes == 1)
        #expect(log.lines(startingWith: "notice") == ["notice nameLength"])
    }

    @Test func observersSeeSettledValuesWhenNotified() {
        let cogs = Cogs.forTesting()
        var seen: [Int] = []
        let spy = ObservationSpy { _ = cogs[nameLengthCog] }
        withObservationTracking {
            _ = cogs[nameLengthCog]
        } onChange: {
            MainActor.assumeIsolated { seen.append(cogs.peek(nameLengthCog)) }
        }
        cogs.turn { c in c[_firstNameCog] = "Katherine" }
        #expect(seen == [9])
        #expect(spy.changes == 1)
    }

    @Test func onlyStatesAUIReadHaveABoundaryAndAskingCreatesNone() {
        let cogs = Cogs.forTesting()
        #expect(cogs.observationBoundaryCount == 0)
        #expect(!cogs.hasObservationBoundary(for: nameLengthCog))
        #expect(cogs.liveStateCount == 0, "asking about an unread state does not create it")
        _ = cogs.peek(nameLengthCog)
        #expect(cogs.observationBoundaryCount == 0, "a peek is not a UI read")
        _ = cogs[nameLengthCog]
        #expect(cogs.hasObservationBoundary(for: nameLengthCog))
        #expect(!cogs.hasObservationBoundary(for: _firstNameCog), "what it read behind it has none")
        #expect(cogs.observationBoundaryCount == 1)
    }
}
