import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

@testable import CogInspector

/// Work over most of a big trace says how far it has got, so the front end can show a line once
/// it runs long: reading every turn's name (`find`) and a bisect over many candidates. Each
/// answers as it did without the reports.
@Suite("Progress of long answers")
struct ProgressReportTests {
    /// A trace of `turns` turns, each writing source `a` (id 1) to the turn's number, named
    /// `turn N` (and every thousandth also `milestone`).
    private func counterSession(turns: Int) throws -> InspectorSession {
        var lines = [
            #"{"type":"header","format":"cogtrace","version":"1.1","minReader":"1.0","producer":"test","run":"r","title":"t","clock":"virtual","mode":"ring","capacity":100000,"keyframeEvery":100000}"#,
            #"{"type":"state","id":1,"label":"a","decl":"a","key":null,"shape":"manual","valueType":"Int","lifetime":"app","policy":null}"#,
            #"{"type":"keyframe","before":1,"states":[{"id":1,"value":{"t":"0","j":0},"version":0,"deps":[],"leases":[]}],"registrations":[]}"#,
        ]
        for sequence in 1...turns {
            let name = sequence % 1_000 == 0 ? "milestone \(sequence)" : "turn \(sequence)"
            lines.append(
                #"{"type":"turn","seq":\#(sequence),"name":"\#(name)","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"write","s":1,"old":{"t":"\#(sequence - 1)","j":\#(sequence - 1)},"new":{"t":"\#(sequence)","j":\#(sequence)}}]}"#
            )
        }
        return InspectorSession(trace: try TraceFile.parse(lines.joined(separator: "\n") + "\n"), source: "counter")
    }

    /// What a session reported, in order.
    private final class Reports {
        var list: [TraceProgress] = []
    }

    @Test func findReportsReadingEveryTurnsName() throws {
        let turns = TraceEventIndex.batchSize + 5_000
        let session = try counterSession(turns: turns)
        let reports = Reports()
        let result = try #require(
            try session.execute("find milestone", call: CommandCall(progress: { reports.list.append($0) })))
        let named = reports.list.filter { $0.task == "reading turn names" }
        #expect(!named.isEmpty)
        #expect(named.allSatisfy { $0.total == turns && $0.completed > 0 && $0.completed < turns })
        var turnRows: [[Cell]] = []
        for case .section(let title, let body) in result.report where title == "turns" {
            for case .table(_, let rows) in body { turnRows = rows }
        }
        #expect(turnRows.count == turns / 1_000)
        #expect(!session.context().hasTimeline, "find built the event index")
    }

    @Test func aBisectOverManyCandidatesReportsHowFarItGot() throws {
        let session = try counterSession(turns: 3 * CommandContext.bisectProgressStep)
        let reports = Reports()
        let context = session.context(CommandCall(progress: { reports.list.append($0) }))
        #expect(try context.bisect(try context.expression("a == -1")) == nil)
        let bisecting = reports.list.filter { $0.task == "bisecting" }
        #expect(bisecting.count >= 2)
        #expect(bisecting.map(\.completed) == bisecting.map(\.completed).sorted())
        let found = try #require(try context.bisect(try context.expression("a == 9000")))
        #expect(found.turn == 9_000)
    }
}
