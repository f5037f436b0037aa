import Cog
import CogTesting
import Observation
import Testing

/// The seeds' forecast example, as the agent guide writes it.
struct ForecastReading: Equatable, Sendable {
    let temperatureF: Int
}

struct ForecastService: Sendable {
    var forecast: @Sendable (_ zip: Int) async throws -> ForecastReading?
}

struct ForecastUnavailable: Error, Equatable {}

private let _forecastServiceCog = Cog<ForecastService>.Manual(name: "forecast.service") {
    ForecastService(forecast: { zip in ForecastReading(temperatureF: zip % 100) })
}
let forecastServiceCog = _forecastServiceCog.readOnly

/// Compiles exactly as the guide shows it.
let guideForecastCogs = CogBox<ForecastReading?, Int>.Async(default: nil, name: "guide.forecast") { c, zip in
    let forecastService = c[forecastServiceCog]
    return .run { @concurrent in
        try await forecastService.forecast(zip)
    }
}

/// A keyed forecast whose work the test controls; one per test, since tests run in parallel.
enum ControlledForecast {
    static func make() -> (ControlledWork<ForecastReading?>, CogBox<ForecastReading?, Int>.Async) {
        let work = ControlledWork<ForecastReading?>()
        return (work, CogBox<ForecastReading?, Int>.Async(default: nil, name: "forecast") { _, _ in work.run() })
    }
}

@Suite("Async: the forecast semantics of the seeds", .timeLimit(.minutes(5)))
struct AsyncWeatherSemanticsTests {
    @Test func theGuidesForecastLoadsThroughItsService() async {
        let cogs = Cogs.forTesting()
        let handle = cogs.refresh(guideForecastCogs[10072])
        #expect(await handle.outcome.name == "success")
        #expect(cogs.peek(guideForecastCogs[10072]) == ForecastReading(temperatureF: 72))
    }

    @Test func theFirstStatusIsPendingWithTheDefault() async {
        let work = ControlledWork<ForecastReading?>()
        let forecastCog = Cog<ForecastReading?>.Async(default: nil, name: "first") { _ in work.run() }
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        let forecast = cogs.status[forecastCog]
        #expect(forecast.kind == .pending)
        #expect(forecast.value == nil)
        #expect(forecast.hasSucceeded == false)
        #expect(forecast.isLoading)
        #expect(cogs[forecastCog] == nil)
        let generation = await work.nextStart()
        await generation.succeed(ForecastReading(temperatureF: 70))
        #expect(cogs[forecastCog] == ForecastReading(temperatureF: 70))
        #expect(
            log.lines(startingWith: "turn") == [
                "turn 1 first pending asyncCompletion", "turn 2 first success asyncCompletion",
            ])
    }

    @Test func aFailedRefreshKeepsTheLastReadingForPlainAndStatusReads() async {
        let (forecastWork, forecastCogs) = ControlledForecast.make()
        let cogs = Cogs.forTesting()
        _ = cogs.peek(forecastCogs[1])
        await forecastWork.nextStart().succeed(ForecastReading(temperatureF: 64))
        let refresh = cogs.refresh(forecastCogs[1])
        await forecastWork.nextStart().fail(ForecastUnavailable())

        #expect(cogs.peek(forecastCogs[1]) == ForecastReading(temperatureF: 64))
        let forecast = cogs.status.peek(forecastCogs[1])
        #expect(forecast.kind == .failure)
        #expect(forecast.value == ForecastReading(temperatureF: 64))
        #expect(forecast.hasSucceeded)
        #expect(forecast.error is ForecastUnavailable)
        #expect(await refresh.outcome.name == "failure")
    }

    @Test func aRefreshInFlightIsSupersededAndItsLateSuccessRejected() async {
        let (forecastWork, forecastCogs) = ControlledForecast.make()
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        let first = cogs.refresh(forecastCogs[2])
        let firstRun = await forecastWork.nextStart()
        let second = cogs.refresh(forecastCogs[2])
        let secondRun = await forecastWork.nextStart()

        #expect(firstRun.isCancelled)
        #expect(await first.outcome.name == "superseded")
        await firstRun.succeed(ForecastReading(temperatureF: 1))
        #expect(cogs.peek(forecastCogs[2]) == nil)
        await secondRun.succeed(ForecastReading(temperatureF: 2))
        #expect(cogs.peek(forecastCogs[2]) == ForecastReading(temperatureF: 2))
        #expect(await second.outcome.name == "success")
        #expect(log.lines(startingWith: "turn").contains { $0.contains("failure") } == false)
    }

    @Test func equalSuccessesLeavePlainReadersQuietWhileStatusReadersSeePendingThenSuccess() async {
        let (forecastWork, forecastCogs) = ControlledForecast.make()
        let cogs = Cogs.forTesting()
        _ = cogs.peek(forecastCogs[3])
        await forecastWork.nextStart().succeed(ForecastReading(temperatureF: 75))
        let plain = ObservationSpy { _ = cogs[forecastCogs[3]] }
        var kinds: [CogStatus<ForecastReading?>.Kind] = []
        let status = StatusKindRecorder(cogs: cogs, ref: forecastCogs[3]) { kinds.append($0) }

        cogs.refresh(forecastCogs[3])
        await forecastWork.nextStart().succeed(ForecastReading(temperatureF: 75))

        #expect(plain.changes == 0)
        #expect(kinds == [.pending, .success])
        _ = status
    }
}

/// Re-reads `kind` through the UI lens each time Observation reports a change, recording it.
private final class StatusKindRecorder {
    private let cogs: Cogs
    private let ref: CogBoxAsyncReference<ForecastReading?>
    private let record: (CogStatus<ForecastReading?>.Kind) -> Void

    init(
        cogs: Cogs, ref: CogBoxAsyncReference<ForecastReading?>,
        record: @escaping (CogStatus<ForecastReading?>.Kind) -> Void
    ) {
        self.cogs = cogs
        self.ref = ref
        self.record = record
        arm()
    }

    private func arm() {
        withObservationTracking {
            _ = cogs.status[ref].kind
        } onChange: { [weak self] in
            MainActor.assumeIsolated { self?.changed() }
        }
    }

    private func changed() {
        record(cogs.status.peek(ref).kind)
        arm()
    }
}
