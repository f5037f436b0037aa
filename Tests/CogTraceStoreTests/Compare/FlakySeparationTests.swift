import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

/// `FlakySeparation` over copies of the tour recording: passing runs as recorded, failing runs
/// with a failure record and, in some, two forecasts arriving in the other order (a race).
@Suite("Separating failing runs from passing ones")
struct FlakySeparationTests {
    private static let lines = TraceComparisonTests.tour.split(separator: "\n", omittingEmptySubsequences: false)
        .map(String.init)

    private static let failure =
        #"{"type":"failure","after":25,"test":"TourTests.theTour","kind":"expectation","message":"Expectation failed"}"#

    /// The tour, with turns `swapping` exchanged (each keeps its number), a failure before the
    /// trailer when `failed`, and `edit` applied to the line of turn `editing`.
    private func run(
        swapping: (Int, Int)? = nil, failed: Bool, editing: (turn: Int, old: String, new: String)? = nil
    ) throws -> TraceFile {
        var lines = Self.lines
        func index(of turn: Int) throws -> Int {
            try #require(lines.firstIndex { $0.hasPrefix("{\"type\":\"turn\",\"seq\":\(turn),") })
        }
        if let (first, second) = swapping {
            let (a, b) = (try index(of: first), try index(of: second))
            let bodyA = lines[a].drop { $0 != "," }.dropFirst().drop { $0 != "," }
            let bodyB = lines[b].drop { $0 != "," }.dropFirst().drop { $0 != "," }
            lines[a] = "{\"type\":\"turn\",\"seq\":\(first)" + bodyB
            lines[b] = "{\"type\":\"turn\",\"seq\":\(second)" + bodyA
        }
        if let editing {
            let line = try index(of: editing.turn)
            #expect(lines[line].contains(editing.old))
            lines[line] = lines[line].replacingOccurrences(of: editing.old, with: editing.new)
        }
        if failed {
            let trailer = try #require(lines.firstIndex { $0.hasPrefix("{\"type\":\"trailer\"") })
            lines.insert(Self.failure, at: trailer)
        }
        return try TraceFile.parse(lines.joined(separator: "\n"))
    }

    @Test func aRaceIsTheStepNoPassingRunShares() throws {
        let separation = try FlakySeparation([
            ("pass-1", try run(failed: false)),
            ("fail-1", try run(swapping: (7, 8), failed: true)),
            ("pass-2", try run(failed: false, editing: (20, "\"t\":\"true\"", "\"t\":\"true \""))),
            ("fail-2", try run(swapping: (7, 8), failed: true)),
            ("pass-3", try run(failed: false)),
        ])
        #expect(separation.failing == ["fail-1", "fail-2"])
        #expect(separation.passing == ["pass-1", "pass-2", "pass-3"])
        #expect(separation.place == "turn 7")
        #expect(separation.turnName == "weather.forecast[98101] success")
        #expect(separation.onlyInFailing.contains("turn 'weather.forecast[98101] success'"))
        #expect(separation.onlyInPassing.contains("turn 'weather.forecast[94105] success'"))
        #expect(separation.perFailingRun.isEmpty)
    }

    @Test func runsThatPartOnlyAtTheFailureAreSaidToAgreeBeforeIt() throws {
        let separation = try FlakySeparation([
            ("pass", try run(failed: false)), ("fail", try run(failed: true)),
        ])
        #expect(separation.position == nil)
        #expect(separation.positionsCompared == 25)
    }

    @Test func failingRunsThatDifferEachTheirOwnWayAreListedOneByOne() throws {
        let separation = try FlakySeparation([
            ("pass", try run(failed: false)),
            ("swapped", try run(swapping: (7, 8), failed: true)),
            ("warmer", try run(failed: true, editing: (7, "\"temperatureF\":68", "\"temperatureF\":69"))),
        ])
        #expect(separation.place == "turn 7")
        #expect(separation.onlyInFailing.isEmpty)
        #expect(separation.onlyInPassing.contains { $0.hasPrefix("weather.forecast[94105] = ") })
        #expect(separation.perFailingRun.map(\.run) == ["swapped", "warmer"])
        let warmer = try #require(separation.perFailingRun.last)
        #expect(warmer.sentences.contains { $0.contains("\"temperatureF\":69") })
    }

    @Test func onlyPassingOrOnlyFailingRunsAreRefused() throws {
        #expect(throws: FlakyRefusal.needsBoth(failing: 0, passing: 2)) {
            try FlakySeparation([("a", try run(failed: false)), ("b", try run(failed: false))])
        }
        #expect(throws: FlakyRefusal.needsBoth(failing: 1, passing: 0)) {
            try FlakySeparation([("a", try run(failed: true))])
        }
    }
}
