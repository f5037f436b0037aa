import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

@testable import CogInspector
@testable import CogInspectorExport

/// Many recordings in one database: every row says its trace, failures get a table, and one
/// query ranks across runs.
@Suite("Many traces in one database")
struct ManyTracesTests {
    private static let recordings = Recording.directory

    /// The committed recordings, and three failing runs of the tour: two fail after turn 6, one
    /// after turn 11.
    private func sessions() throws -> [InspectorSession] {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.recordings.path)
            .filter { $0.hasSuffix(".cogtrace") }.sorted()
        var sessions = try names.map { name in
            InspectorSession(
                trace: try TraceFile.load(contentsOf: Self.recordings.appendingPathComponent(name)), source: name,
                catalog: .standard)
        }
        let tour = try String(contentsOf: Self.recordings.appendingPathComponent("tour.cogtrace"), encoding: .utf8)
        for (run, after) in [(1, 6), (2, 6), (3, 11)] {
            var lines = tour.split(separator: "\n").map(String.init)
            lines.insert(
                #"{"type":"failure","after":\#(after),"test":"TourTests.alert","kind":"expectation","message":"no","file":"TourTests.swift","line":9}"#,
                at: lines.count - 1)
            sessions.append(
                InspectorSession(
                    trace: try TraceFile.parse(lines.joined(separator: "\n")), source: "failing-\(run)",
                    catalog: .standard))
        }
        return sessions
    }

    @Test func oneQueryRanksTheTurnsFailuresFollowAcrossRuns() throws {
        let sessions = try sessions()
        let database = try TraceDatabase(sources: sessions.map { $0.context().databaseSource })
        let ranking = try database.query(
            """
            SELECT t.name AS turn, count(*) AS failures FROM failures f
            JOIN turns t ON t.trace = f.trace AND t.seq = f.after_turn
            GROUP BY t.name ORDER BY failures DESC, turn
            """)
        #expect(ranking.columns == ["turn", "failures"])
        let tour = sessions.first { $0.source == "tour.cogtrace" }!
        let sixth = try tour.trace.turn(6).name
        let eleventh = try tour.trace.turn(11).name
        #expect(ranking.rows == [[.text(sixth), .integer(2)], [.text(eleventh), .integer(1)]])

        let traces = try database.query("SELECT count(DISTINCT trace) FROM turns")
        #expect(traces.rows == [[.integer(sessions.count)]])
        let writes = try database.query(
            "SELECT count(*) FROM writes WHERE trace = 'tour.cogtrace' AND label = 'weather.currentZip'")
        let expected = try tour.turns.reduce(0) { count, sequence in
            count
                + (try tour.trace.turn(sequence).events.filter { event in
                    if case .write(let state, _, _) = event {
                        tour.trace.states[state]?.label == "weather.currentZip"
                    } else {
                        false
                    }
                }.count)
        }
        #expect(writes.rows == [[.integer(expected)]])
        #expect(expected > 0)
    }

    @Test func withSeveralTracesOnlyTheDatabaseExportRuns() throws {
        let sessions = try sessions()
        let primary = sessions[0]
        primary.companions = Array(sessions.dropFirst())
        do {
            _ = try primary.execute("why weather.isNiceHere")
            Issue.record("a single-trace command ran over many traces")
        } catch {
            #expect(
                error.message.hasPrefix(
                    "with \(sessions.count) traces open, only 'flaky', 'export sqlite FILE' and 'export tables DIR' work"
                ))
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("many-\(UUID().uuidString).db")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try primary.execute("export sqlite \(file.path)")
        #expect(
            result?.report == [
                .message(
                    "wrote the sql tables of \(sessions.count) traces to \(file.path); open it with sqlite3 \(file.path)"
                )
            ])
        #expect(FileManager.default.fileExists(atPath: file.path))
    }
}
