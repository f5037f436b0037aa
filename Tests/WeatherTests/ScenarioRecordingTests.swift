import CogTesting
import CogTrace
import CogTraceStore
import Foundation
import Testing

@testable import WeatherScenarios

/// Each scenario's recording holds the fact it exists to show, read back from the trace.
@Suite("Scenario recordings", .cogTrace, .timeLimit(.minutes(5)))
struct ScenarioRecordingTests {
    private func trace(_ name: String) async throws -> TraceFile {
        let session = await Scenario.named(name)!.run()
        return try TraceFile.parse(session.trace())
    }

    private func events(_ file: TraceFile) throws -> [(turn: TraceTurn, event: TraceEvent)] {
        try file.turnSequences.flatMap { sequence -> [(TraceTurn, TraceEvent)] in
            let turn = try file.turn(sequence)
            return (turn.events + turn.after).map { (turn, $0) }
        }
    }

    private func value(_ file: TraceFile, _ label: String, after sequence: TurnNumber? = nil) throws -> String? {
        let id = try #require(file.stateID(labelled: label))
        return try file.snapshot(after: sequence ?? file.turnSequences.last!).states[id]?.value?.text
    }

    @Test func everyScenarioRecordsAndReadsBackCleanly() async throws {
        for scenario in Scenario.all {
            let file = try await trace(scenario.name)
            #expect(file.warnings.isEmpty, "\(scenario.name)")
            #expect(file.trailer?.ok == true, "\(scenario.name)")
            #expect(file.header.title == scenario.name)
            #expect(file.turnCount > 5, "\(scenario.name)")
        }
    }

    /// A streamed trace is converted on the writer's thread from copied packed events; it must
    /// say exactly what the ring's trace of the same run says, turn by turn.
    @Test func everyScenarioStreamsTheTurnsItsRingRecords() async throws {
        for scenario in Scenario.all {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent(
                "stream-\(scenario.name)-\(getpid()).cogtrace")
            defer { try? FileManager.default.removeItem(at: url) }
            let session = await scenario.run(streamingTo: url)
            session.recorder.finishStreaming()
            let ring = try TraceFile.parse(session.trace())
            let streamed = try TraceFile.load(contentsOf: url)
            #expect(streamed.warnings.isEmpty, "\(scenario.name)")
            #expect(streamed.states == ring.states, "\(scenario.name)")
            #expect(streamed.turnSequences == ring.turnSequences, "\(scenario.name)")
            for sequence in ring.turnSequences {
                #expect(try streamed.turn(sequence) == ring.turn(sequence), "\(scenario.name) turn \(sequence)")
                #expect(
                    try streamed.snapshot(after: sequence) == ring.snapshot(after: sequence),
                    "\(scenario.name) after \(sequence)")
            }
        }
    }

    @Test func heatAdvisoryIsSunnyButNotNice() async throws {
        let file = try await trace("heat-advisory")
        #expect(try value(file, "weather.isSunny[10001]") == "true")
        #expect(try value(file, "weather.isNice[10001]") == "false")
        #expect(try value(file, "weather.forecast[10001]")?.contains("94°F heat advisory") == true)
    }

    @Test func failureKeepsTheLastReadingThenRecovers() async throws {
        let file = try await trace("service-outage")
        let failure = try #require(
            try file.turnSequences.map { try file.turn($0) }.first { $0.name.hasSuffix("failure") })
        #expect(try value(file, "weather.forecast[10001]", after: failure.sequence) == "clear 75°F")
        let id = try #require(file.stateID(labelled: "weather.forecast[10001]"))
        #expect(try file.snapshot(after: failure.sequence).states[id]?.async?.kind == .failure)
        #expect(try file.snapshot(after: file.turnSequences.last!).states[id]?.async?.kind == .success)
    }

    @Test func staleRefreshRejectsTheLateResult() async throws {
        let file = try await trace("stale-refresh")
        let id = try #require(file.stateID(labelled: "weather.forecast[10001]"))
        let all = try events(file).map(\.event)
        #expect(all.contains(.generationCancelled(state: id, generation: 2)))
        #expect(all.contains(.generationRejected(state: id, generation: 2)))
        #expect(all.contains(.generationAccepted(state: id, generation: 3, outcome: "success")))
    }

    @Test func switchingRewiresIsNiceHere() async throws {
        let file = try await trace("switching")
        let here = try #require(file.stateID(labelled: "weather.isNiceHere"))
        let wired = try events(file).compactMap { item -> String? in
            guard case .dependencies(here, let producers) = item.event else { return nil }
            return producers.compactMap { file.states[$0]?.label }.first { $0.hasPrefix("weather.isNice[") }
        }
        for zip in ["10001", "94105", "98101", "60601"] {
            #expect(wired.contains("weather.isNice[\(zip)]"), "isNiceHere never read isNice[\(zip)]")
        }
    }

    @Test func theMapExportLeasesThenGraceReleases() async throws {
        let file = try await trace("map")
        let map = try #require(file.stateID(labelled: "weather.mapLocation"))
        let all = try events(file).map(\.event)
        #expect(
            all.contains { if case .leaseAcquired(map, let holder) = $0 { holder.hasPrefix("export") } else { false } })
        #expect(all.contains(.stateReleased(state: map, reason: "graceExpired")))
    }

    @Test func closingScreensDiscardsTheirNotes() async throws {
        let file = try await trace("screens")
        let note = try #require(file.stateID(labelled: "weather.detailNote[10001]"))
        let all = try events(file)
        #expect(
            all.contains { $0.turn.origin == .discard && $0.event == .stateReleased(state: note, reason: "discarded") }
        )
        #expect(
            all.contains {
                if case .scopeOpened(_, let name, "94105") = $0.event { name.hasSuffix("[94105]") } else { false }
            })
    }

    @Test func theTourAlertsWhenNewYorkTurnsNice() async throws {
        let session = await Scenario.named("tour")!.run()
        #expect(session.raisedAlerts.first == "It is nice outside in New York!")
        let file = try TraceFile.parse(session.trace())
        let turnsToNice = try events(file).filter {
            if case .watchRun(_, let old, let new) = $0.event {
                old?.text == "false" && new.text == "true"
            } else {
                false
            }
        }
        #expect(turnsToNice.count == session.raisedAlerts.count)
    }
}
