import CogTesting
import CogTrace
import CogTraceStore
import Foundation
import Testing
import Weather

@testable import WeatherScenarios

/// The comparison held to a corpus of regressions: every scenario recorded with the shipped
/// Weather app and again with one small logic change, and the first divergence `diff --trace`
/// reports must be the one a plain reading of the two files finds (`StepListing`). A change that
/// only renumbers registrations must compare as agreeing.
@Suite("Regression corpus", .timeLimit(.minutes(5)))
struct RegressionCorpusTests {
    /// Every named change but the one that only renumbers registrations.
    nonisolated static let regressions = WeatherLogicChange.all.filter { $0.name != "scope-first" }

    /// The scenario's recording under `logic`.
    @MainActor
    private static func record(_ scenario: Scenario, under logic: WeatherLogic) async -> String {
        await WeatherLogic.$current.withValue(logic) { await scenario.run().trace() }
    }

    /// Both recordings as files read back, and the comparison's first divergence checked against
    /// the plain reading; the divergence (nil when they agree).
    @MainActor
    private static func compare(_ shipped: String, _ changed: String, _ what: String) throws -> TraceDifference? {
        let comparison = try TraceComparison(try TraceFile.parse(shipped), try TraceFile.parse(changed))
        let expected = try StepListing(text: shipped).firstDivergence(from: try StepListing(text: changed))
        let found = comparison.firstDivergence
        if let expected {
            let turn = found.flatMap { $0.aspect == .turnCount ? nil : $0.turn.map { Int($0.rawValue) } }
            let afterTurn = found.map { $0.aspect != .turnCount && $0.afterTurn }
            let wanted = "\(expected.turn.map(String.init) ?? "the end")\(expected.afterTurn ? "+" : "")"
            #expect(
                found != nil && turn == expected.turn && afterTurn == expected.afterTurn,
                "\(what): \(found?.place ?? "agree"), the files part at \(wanted)")
        } else {
            #expect(found == nil, "\(what): \(found?.place ?? "") \(found?.lines ?? [])")
        }
        return found
    }

    @Test(arguments: regressions)
    @MainActor
    func theFirstDivergenceIsWhereThePlainReadingFindsIt(_ regression: WeatherLogicChange) async throws {
        var differing = 0
        for scenario in Scenario.all {
            let shipped = await Self.record(scenario, under: .shipped)
            let changed = await Self.record(scenario, under: regression.logic)
            if try Self.compare(shipped, changed, "\(regression) in \(scenario.name)") != nil { differing += 1 }
        }
        #expect(differing > 0, "\(regression) changes no scenario's recording")
    }

    @Test @MainActor func registrationsInAnotherOrderAreNoDifference() async throws {
        let reordered = try #require(WeatherLogicChange.named("scope-first")).logic
        for scenario in Scenario.all {
            let shipped = await Self.record(scenario, under: .shipped)
            let changed = await Self.record(scenario, under: reordered)
            #expect(shipped != changed, "\(scenario.name): the ids do differ")
            #expect(try Self.compare(shipped, changed, "\(scenario.name) reordered") == nil)
        }
    }

    /// The corpus covers each kind of first divergence the issue names.
    @Test @MainActor func theCorpusCoversEachKindOfDivergence() async throws {
        var places: [String: TraceDifference] = [:]
        for regression in Self.regressions {
            // The map is read by the map scenario's dashboard only.
            let scenario: Scenario = regression.name.hasPrefix("map") ? .map : .tour
            let shipped = await Self.record(scenario, under: .shipped)
            let changed = await Self.record(scenario, under: regression.logic)
            places[regression.name] = try Self.compare(shipped, changed, regression.name)
        }
        let inTurn = try #require(places["nice-from-70"])
        #expect(!inTurn.afterTurn && inTurn.aspects.contains(.recomputes))
        let afterTurn = try #require(places["map-capitals"])
        #expect(afterTurn.afterTurn, "the map is computed by a read after the turn: \(afterTurn.place)")
        let watch = try #require(places["alert-on-start"])
        #expect(watch.aspects.contains(.effects))
        #expect(watch.lines.contains { $0.contains("niceAlert fired") }, "\(watch.lines)")
        let trigger = try #require(places["extra-read"])
        #expect(trigger.aspects.contains(.edges))
        let defaultValue = try #require(places["default-30-minutes"])
        #expect(
            defaultValue.lines.contains { $0.contains("weather.refreshInterval") && $0.contains("1800.0 seconds") },
            "both values shown: \(defaultValue.lines)")
    }

    /// `weather replay` of a recording made under a change compares it with what the shipped
    /// code does now: the same first divergence `diff --trace` finds between the two files.
    @Test @MainActor func replayFindsTheSameFirstDivergence() async throws {
        for name in ["nice-from-70", "map-capitals", "default-30-minutes"] {
            let change = try #require(WeatherLogicChange.named(name))
            let scenario: Scenario = name.hasPrefix("map") ? .map : .tour
            let changed = try TraceFile.parse(await Self.record(scenario, under: change.logic))
            let shipped = try TraceFile.parse(await Self.record(scenario, under: .shipped))
            let replay = try await CogReplay(recording: changed).verify(
                against: ScenarioSession(title: changed.header.title))
            let compared = try TraceComparison(changed, shipped).firstDivergence
            let replayed = try #require(replay.firstDivergence, "\(name): the replay found no difference")
            #expect(replayed.place == compared?.place, "\(name)")
            #expect(replayed.lines == compared?.lines, "\(name)")
        }
    }
}
