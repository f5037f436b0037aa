import CogInspectorExport
import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

@testable import CogInspector

/// `history` as a stream: read whole, its rows and what follows them are the history a batch
/// run prints, for every state of every recording, whole or up to a turn, however small the
/// batches; and only a session that asks for streams gets one.
@Suite("history streamed")
struct HistoryStreamTests {
    @Test(arguments: ["tour", "map", "screens", "switching", "service-outage", "stale-refresh", "heat-advisory"])
    func aStreamedHistoryReadWholeIsTheHistory(_ name: String) throws {
        let session = try DiffTests.session(name)
        let last = try #require(session.turns.last)
        let middle = session.turns[session.turns.count / 2]
        for id in session.trace.states.keys.sorted() {
            for limit in [nil, middle, last] {
                let whole = session.context().stateHistory(of: id, field: nil, through: limit)
                for firstBatch in [1, 3, 1_000] {
                    // A fresh session each time: a timeline built by one would be reused by the next.
                    let streaming = try DiffTests.session(name)
                    let streamed = streaming.context().streamedStateHistory(
                        of: id, field: nil, through: limit, firstBatch: firstBatch)
                    guard case .streamedTable? = streamed.first else {
                        Issue.record("not a stream: \(streamed)")
                        return
                    }
                    #expect(
                        Report.materialized(streamed) == whole,
                        "\(name): \(session.context().label(id)) through \(limit.map { "\($0)" } ?? "the end"), batches of \(firstBatch)"
                    )
                }
            }
        }
    }

    @Test func aFieldsHistoryStreamsTheSameRows() throws {
        let session = try DiffTests.session("heat-advisory")
        let id = try session.context().resolveState("weather.forecast[10001]")
        let whole = session.context().stateHistory(of: id, field: ".temperatureF", through: nil)
        let streamed = try DiffTests.session("heat-advisory").context().streamedStateHistory(
            of: id, field: ".temperatureF", through: nil, firstBatch: 2)
        #expect(Report.materialized(streamed) == whole)
    }

    @Test func onlyASessionThatAsksGetsAStream() throws {
        let session = try DiffTests.session("tour")
        let plain = try #require(try session.execute("history weather.currentZip"))
        #expect(!plain.report.contains { if case .streamedTable = $0 { true } else { false } })
        let streamed = try #require(
            try session.execute("history weather.currentZip", call: CommandCall(streamsTables: true)))
        #expect(streamed.report.contains { if case .streamedTable = $0 { true } else { false } })
        #expect(ReportRenderer().text(streamed) == ReportRenderer().text(plain), "rendered whole, the same text")
    }
}

/// `turns` and `sql` as streams: read whole, the same rows, failure markers, warnings and
/// messages as a batch run, for ranges, filters and queries that list all, some or none.
@Suite("turns and sql streamed")
struct TurnsStreamTests {
    @Test(arguments: [
        "sql SELECT * FROM turns", "sql SELECT turn, trace FROM turns", "sql SELECT * FROM events WHERE turn > 20",
        "sql SELECT * FROM turns WHERE turn > 99", "sql SELECT label, count(*) AS n FROM recomputes GROUP BY label",
        "turns", "turns 5..12", "turns 90..99", "turns --name select*", "turns --touching weather.isNiceHere",
        "turns --name nothing*", "turns 3..3",
    ])
    func streamedTurnsReadWholeAreTheTurns(_ command: String) throws {
        let failing = try String(
            contentsOf: DiffTests.recordings.appendingPathComponent("tour.cogtrace"), encoding: .utf8
        ).split(separator: "\n").map(String.init)
        var lines = failing
        lines.insert(
            #"{"type":"failure","after":6,"test":"T.a","kind":"expectation","message":"not nice","file":null,"line":null}"#,
            at: lines.count - 1)
        let traces = [
            try TraceFile.parse(failing.joined(separator: "\n") + "\n"),
            try TraceFile.parse(lines.joined(separator: "\n") + "\n"),
        ]
        for trace in traces {
            let plain = InspectorSession(trace: trace, source: "tour", catalog: .standard)
            let streaming = InspectorSession(trace: trace, source: "tour", catalog: .standard)
            let whole = try? plain.execute(command)
            let streamed = try? streaming.execute(command, call: CommandCall(streamsTables: true))
            #expect(whole != nil && streamed != nil, "\(command)")
            guard let whole, let streamed else { continue }
            if command == "turns" || command == "sql SELECT * FROM turns" {
                #expect(streamed.report.contains { if case .streamedTable = $0 { true } else { false } })
            }
            #expect(Report.materialized(streamed.report) == whole.report, "\(command)")
            // A stream is read once: the JSON of the same command, asked again.
            let again = try streaming.execute(command, call: CommandCall(streamsTables: true))
            #expect(again.map { ReportRenderer().json($0) } == ReportRenderer().json(whole), "\(command)")
        }
    }

    /// `find` at a prompt streams the turns it matches under their section's title; read whole,
    /// it is the batch answer (sections, the values at the cursor, nothing-matches, and the
    /// warning for a turn whose name cannot be read), however small the batches.
    @Test(arguments: ["find e", "find zip", "find pending", "find no-such-thing", "find 94105", "find *Nice*"])
    func aStreamedFindReadWholeIsTheFind(_ command: String) throws {
        let undecodable = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("coginspectTests/Fixtures/Hostile/undecodable-turn.cogtrace")
        let traces = [
            try TraceFile.parse(
                String(contentsOf: DiffTests.recordings.appendingPathComponent("tour.cogtrace"), encoding: .utf8)),
            try TraceFile.parse(String(contentsOf: undecodable, encoding: .utf8)),
        ]
        for trace in traces {
            let plain = InspectorSession(trace: trace, source: "tour", catalog: .standard)
            _ = try plain.execute("goto 5")
            let whole = try #require(try plain.execute(command))
            for firstBatch in [1, 3, 8_192] {
                let streaming = InspectorSession(trace: trace, source: "tour", catalog: .standard)
                _ = try streaming.execute("goto 5")
                let pattern = String(command.dropFirst("find ".count))
                let streamed = try streaming.context(CommandCall(streamsTables: true)).find(
                    pattern, firstBatch: firstBatch)
                #expect(streamed.contains { if case .streamedTable = $0 { true } else { false } })
                #expect(
                    Report.materialized(streamed) == whole.report, "\(command), batches from \(firstBatch)")
            }
            // Through the command, rendered whole: the same text.
            let streaming = InspectorSession(trace: trace, source: "tour", catalog: .standard)
            _ = try streaming.execute("goto 5")
            let streamed = try #require(try streaming.execute(command, call: CommandCall(streamsTables: true)))
            #expect(ReportRenderer().text(streamed) == ReportRenderer().text(whole), "\(command)")
        }
    }
}
