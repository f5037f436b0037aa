import Cog
import CogTestSupport
import CogTrace

/// The app the replay section records and replays: a chosen city, its temperature from a
/// service as a keyed async family, and derived states over it, driven as a test would drive
/// it (choose, read, wait for the answer) until the recording has the turns asked for.
enum ReplayBenchApp {
    static let cities = ["Oslo", "Rome", "Cairo", "Lima", "Quito", "Perth", "Atlantis"]

    private static let _city = Cog<String>.Manual(name: "bench.city") { "Oslo" }
    static let city = _city.readOnly
    static let temperature = CogBox<Int, String>.Async(default: -100, name: "bench.temperature") { _, city in
        .run { try service(city) }
    }
    static let here = Cog<Int>(name: "bench.here") { c in c[temperature[c[city]]] }
    static let isWarm = Cog<Bool>(name: "bench.isWarm") { c in c[here] >= 20 }

    struct Unknown: Error, CustomStringConvertible {
        let city: String
        var description: String { "no weather for \(city)" }
    }

    /// The service the recorded session calls: a table, answering at once.
    static func service(_ city: String) throws -> Int {
        guard let index = cities.firstIndex(of: city), city != "Atlantis" else { throw Unknown(city: city) }
        return 5 + index * 6
    }

    /// The session's trace once it has `turns` turns.
    static func record(turns: Int) async -> String {
        let clock = TestClock()
        let cogs = Cogs.forTesting(clock: clock)
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "bench-replay", clock: .virtual(clock)))
        recorder.attach(to: cogs)
        var index = 0
        while recorder.recordedTurnCount < turns {
            let name = cities[index % cities.count]
            cogs.turn("choose(city:)") { $0[_city] = name }
            _ = cogs.peek(isWarm)
            while cogs.status.peek(temperature[name]).isLoading { await Task.yield() }
            index += 1
        }
        return recorder.traceText()
    }

    /// How a replay test assembles it.
    enum Assembly: CogReplayAssembly {
        static var declarations: [CogReplayDeclaration] {
            [.source(city), .family(temperature), .state(here), .state(isWarm)]
        }
    }
}
