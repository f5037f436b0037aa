import CogInspector
import CogInspectorExport
import CogTraceStore
import Foundation
import Testing

/// The exports that can run long say so while they work, so the prompt can show a line: the
/// viewer counts the turns it has built, and a query says it is running (SQLite cannot say how
/// far it has got, so it gives no total).
@Suite("Progress of exports and queries")
struct ExportProgressTests {
    /// What a session reported, in order.
    private final class Reports {
        var list: [TraceProgress] = []
    }

    @Test func theViewerCountsTheTurnsItBuilds() throws {
        let session = try Recording.session("tour")
        let reports = Reports()
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: page) }
        _ = try session.execute(
            "export html --to \(page.path) --layout layered", call: CommandCall(progress: { reports.list.append($0) }))
        let building = reports.list.filter { $0.task == "building the viewer" }
        #expect(building.first?.completed == 0)
        #expect(building.allSatisfy { $0.total == session.trace.turnCount })
    }

    @Test func aLongQuerySaysItIsRunningWithNoTotal() throws {
        let session = try Recording.session("tour")
        let reports = Reports()
        let rows = try #require(
            try session.execute(
                "sql WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) SELECT count(*) FROM c",
                call: CommandCall(progress: { reports.list.append($0) })))
        #expect(rows.report.contains { if case .table = $0 { true } else { false } }, "\(rows.report)")
        let running = reports.list.filter { $0.task == "running the query" }
        #expect(!running.isEmpty)
        #expect(running.allSatisfy { $0.total == 0 })
        #expect(running.map(\.completed) == running.indices.map { ($0 + 1) * 10_000 })
    }
}
