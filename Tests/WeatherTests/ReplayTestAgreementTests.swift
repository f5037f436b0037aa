import CogTesting
import CogTrace
import CogTraceStore
import Testing
import Weather

@testable import WeatherScenarios

/// A generated replay test and `weather replay` judge a recording alike: for every scenario
/// recorded under each of the twelve logic changes, the test the inspector's `export test`
/// writes (the whole recording, `--check all`) fails at the turn `weather replay` names first,
/// or passes where it reports no difference.
@Suite("Replay tests agree with weather replay", .timeLimit(.minutes(5)))
struct ReplayTestAgreementTests {
    @Test(arguments: WeatherLogicChange.all)
    @MainActor
    func aReplayTestFailsWhereWeatherReplayDiverges(_ change: WeatherLogicChange) async throws {
        var differing = 0
        for scenario in Scenario.all {
            let recording = await WeatherLogic.$current.withValue(change.logic) { await scenario.run().trace() }
            let trace = try TraceFile.parse(recording)
            // What `weather replay` does: the recording fed to the shipped app, compared turn by turn.
            let replayed = try await CogReplay(recording: trace).verify(
                against: ScenarioSession(title: trace.header.title))
            let expected = replayed.firstDivergence
            let test = CogReplayTest(
                name: "\(change.name)-\(scenario.name)", recording: recording, check: .all,
                turns: 1...trace.turnCount)
            var found: CogReplayDivergence?
            do {
                try await test.run(WeatherAssembly.self)
            } catch let divergence as CogReplayDivergence {
                found = divergence
            }
            let what = "\(change.name) in \(scenario.name)"
            #expect(
                found?.turn == expected?.turn,
                "\(what): the test says \(found?.place ?? "agree"), replay \(expected?.place ?? "agree")")
            #expect(found?.afterTurn == expected?.afterTurn, "\(what)")
            if let found, let expected { #expect(found.lines == expected.lines, "\(what)") }
            if expected != nil { differing += 1 }
        }
        if change.name == "scope-first" {
            #expect(differing == 0, "renumbered registrations are no difference")
        } else {
            #expect(differing > 0, "\(change.name) changes no scenario")
        }
    }
}
