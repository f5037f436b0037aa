import Foundation
import Testing

/// SQL answers and SQLite exports that can be trusted: a blob shows its bytes, a database with
/// triggers is never added to (they would run on every row), and a malformed trace is exit 65,
/// not an output failure.
@Suite("SQL and SQLite trust")
struct SQLiteTrustTests {
    private func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqltrust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aBlobShowsItsBytes() throws {
        let outcome = try Executables.coginspect([
            "Recordings/tour.cogtrace", "--json", "-c", "sql SELECT x'00410042' AS b, x'' AS e",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains(#""b":"x'00410042'""#), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains(#""e":"x''""#), "\(outcome.standardOutput)")
    }

    @Test(.enabled(if: Executables.onPath("sqlite3") != nil, "needs sqlite3"))
    func aDatabaseWithTriggersIsNotAddedTo() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("runs.db").path
        #expect(
            try Executables.coginspect(["Recordings/tour.cogtrace", "-c", "export sqlite \(database)"]).status == 0)
        let sqlite = try #require(Executables.onPath("sqlite3"))
        let made = try Executables.run(
            sqlite,
            [
                database,
                "CREATE TABLE log(x); CREATE TRIGGER spy AFTER INSERT ON turns BEGIN INSERT INTO log VALUES (1); END;",
            ])
        try #require(made.status == 0, "\(made.standardError)")
        let added = try Executables.coginspect(["Recordings/map.cogtrace", "-c", "export sqlite \(database) --append"])
        #expect(added.status == 73)
        #expect(added.standardError.contains("has triggers (spy)"), "\(added.standardError)")
        let fired = try Executables.run(sqlite, [database, "SELECT count(*) FROM log"])
        #expect(fired.standardOutput == "0\n", "no trigger ran")
    }

    @Test func exportingAMalformedTraceIsExitSixtyFiveAndWritesNothing() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("m.db")
        let outcome = try Executables.coginspect([
            "Tests/coginspectTests/Fixtures/Hostile/undecodable-turn.cogtrace", "-c", "export sqlite \(database.path)",
        ])
        #expect(outcome.status == 65, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("the trace is malformed"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
