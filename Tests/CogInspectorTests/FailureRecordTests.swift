import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

@testable import CogInspector

/// A trace of a failing test holds failure records; the inspector opens at the first, lists them
/// and marks them among the turns.
@Suite("Failure records")
struct FailureRecordTests {
    private static let tour = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Recordings/tour.cogtrace")

    /// The tour with two failures, after turns 6 and 11, written before the trailer as a recorder
    /// writes them.
    private func session() throws -> InspectorSession {
        var lines = try String(contentsOf: Self.tour, encoding: .utf8).split(separator: "\n").map(String.init)
        let failures = [
            #"{"type":"failure","after":6,"test":"TourTests.alert","kind":"expectation","message":"Expectation failed: the alert said 'cold'","file":"TourTests.swift","line":12}"#,
            #"{"type":"failure","after":11,"test":"TourTests.alert","kind":"error","message":"Caught error: timeout","file":null,"line":null}"#,
        ]
        lines.insert(contentsOf: failures, at: lines.count - 1)
        return InspectorSession(trace: try TraceFile.parse(lines.joined(separator: "\n")), source: "failing tour")
    }

    @Test func theTraceOpensAtTheLastTurnBeforeTheFirstFailure() throws {
        let session = try session()
        #expect(session.cursor == 6)
        #expect(session.trace.failures.map(\.after) == [6, 11])
        #expect(session.trace.failures.first?.location == "TourTests.swift:12")
        #expect(session.trace.failures.last?.location == nil)
    }

    @Test func failuresListsThemTypedAndInfoCountsThem() throws {
        let session = try session()
        let result = try #require(try session.execute("failures"))
        let document = try JSONParser.parse(ReportRenderer().json(result))
        let rows = try #require(document["result"]?.arrayValue?.first?["rows"]?.arrayValue)
        #expect(rows.count == 2)
        #expect(rows.first?["after"] == .object([("turn", .int(6)), ("afterTurn", .bool(true))]))
        #expect(rows.first?["kind"] == .string("expectation"))
        #expect(rows.first?["location"] == .string("TourTests.swift:12"))
        #expect(rows.last?["location"] == .null)
        guard case .fields(let fields) = try session.execute("info")?.report.first else {
            Issue.record("info gave no fields")
            return
        }
        #expect(fields.first { $0.name == "failures" }?.value == .integer(2))
    }

    @Test func turnsMarksEachFailureAfterItsTurnAndTurnNListsIt() throws {
        let session = try session()
        let result = try #require(try session.execute("turns 5..7"))
        guard case .table(_, let rows) = result.report.first else {
            Issue.record("turns gave no table")
            return
        }
        let names = rows.map { row -> String in if case .text(let name) = row[1] { name } else { "" } }
        #expect(names.count == 4)
        #expect(names[2] == "✘ failure: Expectation failed: the alert said 'cold'", "right after turn 6")
        #expect(rows[2][0] == .turn(TurnReference(6, afterTurn: true)))
        let turn6 = try #require(try session.execute("turn 6"))
        #expect(turn6.report.contains { if case .section("failures after this turn", _) = $0 { true } else { false } })
    }

    @Test func aTraceWithoutFailuresOpensAtItsEnd() throws {
        let session = InspectorSession(trace: try TraceFile.load(contentsOf: Self.tour), source: "tour")
        #expect(session.cursor == 25)
        #expect(try session.execute("failures")?.report == [.message("the recorded test reported no failure")])
    }
}
