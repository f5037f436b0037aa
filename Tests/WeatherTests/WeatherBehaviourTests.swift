import CogTesting
import Observation
import Testing
import Weather

@testable import Cog
@testable import WeatherScenarios

extension ScenarioSession {
    /// Answers the three start-up requests, New York with `newYork`.
    fileprivate func start(newYork: WeatherReading = WeatherReading(.cloudy, 60)) async {
        await answer(.newYork, newYork)
        await answer(.sanFrancisco, WeatherReading(.partlyCloudy, 68))
        await answer(.seattle, WeatherReading(.cloudy, 60))
    }
}

@Suite("Weather behaviour", .cogTrace, .timeLimit(.minutes(5)))
struct WeatherBehaviourTests {
    @Test func theAlertFiresOnlyWhenItBecomesNice() async {
        let weather = ScenarioSession(title: "behaviour")
        await weather.start(newYork: WeatherReading(.cloudy, 70))
        for reading in [
            WeatherReading(.clear, 75), WeatherReading(.partlyCloudy, 80), WeatherReading(.rain, 70),
            WeatherReading(.clear, 70),
        ] {
            weather.cogs.refreshForecast(for: .newYork)
            await weather.answer(.newYork, reading)
        }
        #expect(weather.raisedAlerts == ["It is nice outside in New York!", "It is nice outside in New York!"])
    }

    @Test func aHeatAdvisoryOrNinetyFourDegreesIsNotNice() async {
        let weather = ScenarioSession(title: "behaviour")
        await weather.start(newYork: WeatherReading(.clear, 94, heatAdvisory: true))
        #expect(weather.cogs.peek(isSunnyCogs[.newYork]))
        #expect(weather.cogs.peek(isNiceCogs[.newYork]) == false)
        weather.cogs.refreshForecast(for: .newYork)
        await weather.answer(.newYork, WeatherReading(.clear, 94))
        #expect(weather.cogs.peek(isNiceCogs[.newYork]) == false)
    }

    @Test func aFailureKeepsTheLastReading() async {
        let weather = ScenarioSession(title: "behaviour")
        await weather.start(newYork: WeatherReading(.clear, 75))
        weather.cogs.refreshForecast(for: .newYork)
        await weather.fail(.newYork, "down")
        #expect(weather.cogs.peek(weatherForecastCogs[.newYork]) == WeatherReading(.clear, 75))
        #expect(weather.cogs.status.peek(weatherForecastCogs[.newYork]).kind == .failure)
    }

    @Test func aStaleRefreshIsRejected() async {
        let weather = ScenarioSession(title: "behaviour")
        await weather.start()
        weather.cogs.refreshForecast(for: .newYork)
        let stale = await weather.hold(.newYork)
        weather.cogs.refreshForecast(for: .newYork)
        await stale.succeed(WeatherReading(.rain, 50))
        await weather.answer(.newYork, WeatherReading(.clear, 75))
        #expect(weather.cogs.peek(weatherForecastCogs[.newYork]) == WeatherReading(.clear, 75))
    }

    @Test func anIntervalOnTheClockRefreshesTheCurrentZipAndAFailureDoesNotStopIt() async {
        let weather = ScenarioSession(title: "behaviour")
        await weather.start()
        await weather.clock.waitForSleepers(1)
        weather.clock.advance(by: .seconds(3_600))
        await weather.fail(.newYork, "down")
        await weather.clock.waitForSleepers(1)
        weather.clock.advance(by: .seconds(3_600))
        await weather.answer(.newYork, WeatherReading(.clear, 75))
        #expect(weather.cogs.peek(weatherForecastCogs[.newYork]) == WeatherReading(.clear, 75))
        #expect(weather.requestCount == 5)
    }

    @Test func perZipInvalidationIsIsolated() async {
        let weather = ScenarioSession(title: "behaviour")
        await weather.start()
        let log = TurnLog.attached(to: weather.cogs)
        weather.cogs.refreshForecast(for: .newYork)
        await weather.answer(.newYork, WeatherReading(.clear, 75))
        #expect(
            log.recomputed.allSatisfy {
                !$0.hasPrefix("weather.isNice[94105]") && !$0.hasPrefix("weather.isSunny[98101]")
            })
        #expect(log.recomputed.contains("weather.isNice[10001]"))
    }

    @Test func anEqualReadingNoticesTheForecastButNotIsNice() async {
        let weather = ScenarioSession(title: "behaviour")
        await weather.start(newYork: WeatherReading(.clear, 75))
        let status = ObservationProbe { _ = weather.cogs.status[weatherForecastCogs[.newYork]].isLoading }
        let nice = ObservationProbe { _ = weather.cogs[isNiceCogs[.newYork]] }
        weather.cogs.refreshForecast(for: .newYork)
        await weather.answer(.newYork, WeatherReading(.clear, 75))
        #expect(status.fired)
        #expect(nice.fired == false)
    }

    @Test func theMapLocationIsReleasedAfterGraceOnceItsExportStops() async {
        let weather = ScenarioSession(title: "behaviour")
        await weather.start()
        let log = TurnLog.attached(to: weather.cogs)
        let before = weather.cogs.liveRegistrationCount
        do {
            let locations = weather.cogs.values(of: mapLocationCog)
            var iterator = locations.makeAsyncIterator()
            #expect(await iterator.next() == MapLocation(zip: .newYork, city: "New York"))
        }
        while weather.cogs.liveRegistrationCount > before { await Task.yield() }
        weather.clock.advance(by: .seconds(29))
        weather.cogs.expireGrace()
        #expect(!log.released.contains("weather.mapLocation"))
        weather.clock.advance(by: .seconds(1))
        weather.cogs.expireGrace()
        #expect(log.released.contains("weather.mapLocation"))
    }

    @Test func theDashboardRendersAgainWhenAStateItReadChanges() async {
        let weather = ScenarioSession(title: "behaviour")
        let dashboard = WeatherDashboard(cogs: weather.cogs)
        #expect(dashboard.text.contains("New York (10001)"))
        #expect(dashboard.text.contains("loading…"))
        await weather.start(newYork: WeatherReading(.clear, 75))
        #expect(dashboard.isStale)
        dashboard.renderIfNeeded()
        #expect(dashboard.text.split(separator: "\n").first == "▶ New York (10001)      75°F clear  nice  [hourly]")
        let renders = dashboard.renderCount
        weather.cogs.writeDetailNote("x", for: .seattle)
        dashboard.renderIfNeeded()
        #expect(dashboard.renderCount == renders, "a state the dashboard never read does not re-render it")
    }
}

/// Records recomputed and released state labels.
private final class TurnLog: CogProbe {
    var labels: [CogStateID: String] = [:]
    var recomputed: [String] = []
    var released: [String] = []

    static func attached(to cogs: Cogs) -> TurnLog {
        let log = TurnLog()
        for (id, state) in cogs.liveSnapshot().states { log.labels[CogStateID(id)] = state.label }
        cogs.probe = log
        return log
    }

    func record(_ event: consuming CogProbeEvent) {
        let event = event
        switch event {
        case .stateCreated(let info, _): labels[info.id] = info.label
        case .recompute(let state, _, _, _, _): recomputed.append(labels[state] ?? "\(state)")
        case .stateReleased(let state, _): released.append(labels[state] ?? "\(state)")
        default: break
        }
    }
}

/// Whether Observation reported a change to what `read` tracked.
private final class ObservationProbe {
    private(set) var fired = false

    init(_ read: @escaping () -> Void) {
        withObservationTracking(read) { [weak self] in
            MainActor.assumeIsolated { self?.fired = true }
        }
    }
}
