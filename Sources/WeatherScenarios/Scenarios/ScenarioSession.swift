import Cog
import CogScripting
import CogTrace
import Foundation
import Weather

/// One scripted Weather session on a virtual clock: the real app and mechanism, a forecast
/// service whose every request the script answers from the demo feed (or fails), and a recorder.
/// Everything that happens is decided by the script, so recording it twice gives the same bytes.
final class ScenarioSession {
    let clock = TestClock()
    let cogs: Cogs
    let recorder: CogRecorder
    let dashboard: WeatherDashboard
    private let alertBox = AlertBox()
    let requests = ControlledWork<WeatherReading>()
    private let feed: DemoFeed
    var waiting: [ControlledGeneration<WeatherReading>] = []
    /// Exports a replay opened, by the state they follow.
    var exports: [String: (AsyncStream<MapLocation?>, AsyncStream<MapLocation?>.Iterator)] = [:]
    static let interval: Duration = .seconds(3_600)
    static let grace: Duration = .seconds(30)

    /// A session whose recorder also streams to `streamURL` when one is given, so a test can
    /// compare the streamed file with the ring's.
    init(title: String, feed: DemoFeed = DemoFeed(), streamingTo streamURL: URL? = nil) {
        self.feed = feed
        let requests = requests
        let service = WeatherService { zip in try await requests.call(tag: zip.rawValue) }
        recorder = CogRecorder(
            configuration: RecorderConfiguration(
                title: title, capacity: 10_000, keyframeInterval: 25, clock: .virtual(clock)))
        // A runtime of its own on the script's clock, seeded before anything starts: the scenario
        // is a scripted run of the app, not a test, so it takes no test support.
        cogs = Cogs(clock: clock, grace: Self.grace)
        CogSeeder(cogs: cogs).seedWeatherService(service)
        recorder.attach(to: cogs)
        if let streamURL { try? recorder.startStreaming(to: streamURL) }
        let alertBox = alertBox
        cogs.start([
            WeatherMechanism(
                notifier: WeatherNotifier { message in MainActor.assumeIsolated { alertBox.messages.append(message) } },
                clock: clock, interval: Self.interval)
        ])
        dashboard = WeatherDashboard(cogs: cogs)
    }

    /// The alerts the app raised so far.
    var raisedAlerts: [String] { alertBox.messages }

    /// Answers the next request for `zip` with the feed's next reading.
    func deliver(_ zip: ZipCode) async {
        await answer(zip, feed.next(for: zip))
    }

    /// Answers the next request for `zip` with `reading` (tests script their own weather).
    func answer(_ zip: ZipCode, _ reading: WeatherReading) async {
        await request(for: zip).succeed(reading)
        dashboard.renderIfNeeded()
    }

    /// How many forecast requests the service has received.
    var requestCount: Int { requests.startCount }

    /// Answers the start-up requests for the initial ZIPs, in order.
    func deliverStartUp() async {
        for zip in ZipCode.initial { await deliver(zip) }
    }

    /// Answers the next request for `zip` with a failure.
    func fail(_ zip: ZipCode, _ message: String) async {
        await request(for: zip).fail(WeatherServiceError(message))
        dashboard.renderIfNeeded()
    }

    /// Waits for the next request for `zip` without answering it (a late result to deliver later).
    func hold(_ zip: ZipCode) async -> ControlledGeneration<WeatherReading> {
        await request(for: zip)
    }

    /// Answers a held request with the feed's next reading.
    func deliver(_ held: ControlledGeneration<WeatherReading>) async {
        await held.succeed(feed.next(for: ZipCode(held.tag)))
        dashboard.renderIfNeeded()
    }

    /// Lets an hour pass: the hourly refresh task wakes and refreshes the current ZIP.
    func passAnHour() async {
        await clock.waitForSleepers(1)
        clock.advance(by: Self.interval)
        await clock.waitForSleepers(1)
    }

    /// Lets `duration` pass and releases what outlived its grace.
    func pass(_ duration: Duration) {
        clock.advance(by: duration)
        cogs.expireDueStates()
        dashboard.renderIfNeeded()
    }

    /// The trace of everything so far.
    func trace() -> String {
        recorder.traceText()
    }

    private func request(for zip: ZipCode) async -> ControlledGeneration<WeatherReading> {
        while true {
            if let index = waiting.firstIndex(where: { $0.tag == zip.rawValue && !$0.isCancelled }) {
                return waiting.remove(at: index)
            }
            waiting.append(await requests.nextStart())
        }
    }
}

/// Collects alerts raised from the mechanism's watch (on the MainActor).
private final class AlertBox {
    var messages: [String] = []
}
