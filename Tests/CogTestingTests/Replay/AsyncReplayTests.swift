import Cog
import CogTesting
import CogTrace
import Testing

/// An app with an async state: the temperature of the chosen city, from a service, and a
/// derived state over it. A replay answers the service's generations with the recorded
/// outcomes, so it never runs the app's work.
private let _cityCog = Cog<String>.Manual(name: "replayAsync.city") { "Oslo" }
private let cityCog = _cityCog.readOnly
private let temperatureCog = Cog<Int>.Async(default: -100, name: "replayAsync.temperature") { c in
    let city = c[cityCog]
    return .run { try await AsyncDemo.service(city) }
}
private let isWarmCog = Cog<Bool>(name: "replayAsync.isWarm") { c in c[temperatureCog] >= AsyncDemo.warmFrom }

private enum AsyncDemo {
    /// The app's service; a test swaps it.
    static var service: (String) async throws -> Int = { city in try table(city) }
    /// The temperature from which a city is warm; a test moves it.
    static var warmFrom = 20

    struct Unknown: Error, CustomStringConvertible {
        let city: String
        var description: String { "no weather for \(city)" }
    }

    static func table(_ city: String) throws -> Int {
        switch city {
        case "Oslo": 8
        case "Rome": 24
        case "Cairo": 31
        case "Lima": 19
        default: throw Unknown(city: city)
        }
    }

    /// A session that picks `count` cities in turn, reads whether each is warm, and waits for
    /// the service's answer before the next.
    static func record(cities count: Int) async -> String {
        let clock = TestClock()
        let cogs = Cogs.forTesting(clock: clock)
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "cities", clock: .virtual(clock)))
        recorder.attach(to: cogs)
        let cities = ["Rome", "Oslo", "Cairo", "Atlantis", "Lima"]
        for index in 0..<count {
            cogs.turn("choose(city:)") { $0[_cityCog] = cities[index % cities.count] }
            _ = cogs.peek(isWarmCog)
            while cogs.status.peek(temperatureCog).isLoading { await Task.yield() }
        }
        return recorder.traceText()
    }
}

private enum CitiesAssembly: CogReplayAssembly {
    static var declarations: [CogReplayDeclaration] {
        [.source(cityCog), .state(temperatureCog), .state(isWarmCog)]
    }
}

@Suite("Replaying async work", .serialized)
struct AsyncReplayTests {
    /// The service never answers during the replay: every generation takes the recorded outcome
    /// (values and a failure) instead, and the derived values and the rest of the trace agree.
    @Test(arguments: CogReplayCheck.allCases)
    func recordedOutcomesAnswerTheGenerations(_ check: CogReplayCheck) async throws {
        let recording = await AsyncDemo.record(cities: 12)
        AsyncDemo.service = { _ in
            try await Task.sleep(for: .seconds(3_600))
            return 0
        }
        defer { AsyncDemo.service = { city in try AsyncDemo.table(city) } }
        try await CogReplayTest(name: "cities", recording: recording, check: check).run(CitiesAssembly.self)
    }

    @Test func aMovedThresholdOverAnAsyncValueFailsWhereItShows() async throws {
        let recording = await AsyncDemo.record(cities: 5)
        AsyncDemo.warmFrom = 25
        defer { AsyncDemo.warmFrom = 20 }
        let test = CogReplayTest(name: "cities-warm-from-25", recording: recording)
        let divergence = try await #require(throws: CogReplayDivergence.self) {
            try await test.run(CitiesAssembly.self)
        }
        #expect(divergence.state == "replayAsync.isWarm")
        #expect(divergence.lines.first?.hasSuffix("here true; in the other false") == true, "\(divergence)")
    }
}
