import CogTesting
import CogTrace
import CogTraceStore
import Foundation
import Testing
import Weather

@testable import WeatherScenarios

/// Replay verification and recording comparison on the Weather app: the committed recordings
/// replay cleanly, and a changed value or a changed feed is found at its turn.
@Suite("Replay and comparison", .cogTrace, .timeLimit(.minutes(5)))
struct ReplayTests {
    static let recordings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Recordings")

    private func recording(_ name: String) throws -> String {
        try String(contentsOf: Self.recordings.appendingPathComponent("\(name).cogtrace"), encoding: .utf8)
    }

    private func replay(_ text: String) async throws -> ReplayResult {
        let trace = try TraceFile.parse(text)
        return try await CogReplay(recording: trace).verify(against: ScenarioSession(title: trace.header.title))
    }

    @Test(arguments: ["tour", "heat-advisory", "service-outage", "stale-refresh", "switching", "map", "screens"])
    func everyCommittedRecordingReplaysWithoutADifference(_ name: String) async throws {
        let result = try await replay(try recording(name))
        #expect(result.firstDivergence == nil, "\(name): \(String(describing: result.firstDivergence))")
        #expect(result.comparison.turnsCompared == result.replayed.turnCount)
        #expect(result.inputsFed > 0)
    }

    @Test func theArgumentsAboveAreEveryScenario() {
        #expect(
            Scenario.all.map(\.name).sorted()
                == ["heat-advisory", "map", "screens", "service-outage", "stale-refresh", "switching", "tour"])
    }

    @Test func anEditedRecordedValueIsReportedAtItsTurn() async throws {
        let edited = try recording("tour").replacingOccurrences(
            of: "\"s\":10,\"old\":{\"t\":\"false\",\"j\":false},\"new\":{\"t\":\"true\",\"j\":true}",
            with: "\"s\":10,\"old\":{\"t\":\"false\",\"j\":false},\"new\":{\"t\":\"false\",\"j\":false}")
        let result = try await replay(edited)
        let divergence = try #require(result.firstDivergence)
        #expect(divergence.turn == 6)
        #expect(divergence.aspect == .recomputes)
        #expect(
            divergence.detail
                == "weather.isNice[10001]: here false → false (recomputed because weather.forecast[10001] changed); "
                + "in the other false → true (recomputed because weather.forecast[10001] changed)")
    }

    @Test func aChangedFeedReadingIsTheFirstDivergenceOfTheTour() async throws {
        var rotation = DemoFeed.rotation(for: .newYork)
        rotation[2] = WeatherReading(.clear, 81)
        let shipped = try TraceFile.parse(await Scenario.tour.run().trace())
        let changed = try TraceFile.parse(
            await Scenario.tour.run(feed: DemoFeed(replacing: [.newYork: rotation])).trace())
        let comparison = try TraceComparison(shipped, changed)
        let first = try #require(comparison.firstDivergence)
        let turn = try shipped.turn(try #require(first.turn))
        #expect(turn.name == "weather.forecast[10001] success")
        let readings = try shipped.turnSequences.filter {
            try shipped.turn($0).name == "weather.forecast[10001] success"
        }
        #expect(first.turn == readings[2], "the third New York reading")
        #expect(first.aspect == .writes)
        #expect(first.detail.contains(".temperatureF is 64 here, 81 in the other"))
    }

    @Test func aRecordingMissingItsFirstTurnsIsRefused() throws {
        let lines = try recording("tour").split(separator: "\n").filter { !$0.contains("\"seq\":1,") }
        let trace = try TraceFile.parse(lines.joined(separator: "\n"))
        #expect(throws: ReplayError("the recording starts at turn 2; replay needs the whole run from turn 1")) {
            try CogReplay(recording: trace)
        }
    }
}
