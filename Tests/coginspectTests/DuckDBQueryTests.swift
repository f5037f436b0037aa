import Foundation
import Testing

/// The DuckDB form of the many-runs question in docs/recording-ci-failures.md, run over JSON Lines
/// traces directly. It runs when Python's `duckdb` package is installed (`.ci/run` installs it).
@Suite("DuckDB over traces", .enabled(if: DuckDB.isAvailable, "python3 with the duckdb package is not here"))
struct DuckDBQueryTests {
    @Test func theDocumentedQueryCountsFailuresPerTest() throws {
        try DuckDB.checkTheDocumentedQuery()
    }
}

/// Python's duckdb, driven through `python3 -c`.
enum DuckDB {
    nonisolated static let isAvailable: Bool = {
        (try? run(["python3", "-c", "import duckdb"]))?.status == 0
    }()

    nonisolated static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// The query docs/recording-ci-failures.md shows, with `ci-traces/` replaced by `directory`.
    static func documentedQuery(over directory: URL) throws -> String {
        let docs = try String(
            contentsOf: Executables.packageRoot.appendingPathComponent("docs/recording-ci-failures.md"), encoding: .utf8
        )
        let block = try #require(
            docs.components(separatedBy: "```sql\n").dropFirst().first { $0.contains("read_json") })
        let query = try #require(block.components(separatedBy: "\n```").first)
        return query.replacingOccurrences(of: "ci-traces/", with: directory.path + "/")
    }

    static func checkTheDocumentedQuery() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("duckdb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tour = try String(
            contentsOf: Executables.packageRoot.appendingPathComponent("Recordings/tour.cogtrace"), encoding: .utf8)
        let query = try documentedQuery(over: directory)
        // Runs that all passed: no failure record anywhere, and no rows.
        for run in 0..<2 {
            try Data(tour.utf8).write(to: directory.appendingPathComponent("run-\(run).cogtrace"))
        }
        let passing = try run(["python3", "-c", "import duckdb, sys; print(duckdb.sql(sys.argv[1]).fetchall())", query])
        #expect(passing.status == 0, "the query fails over runs without failures")
        #expect(passing.output.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        // Five runs: the alert test fails in three, the zip test in one, one run passes.
        for (run, tests) in [["Alert.fires"], ["Alert.fires", "Zip.moves"], ["Alert.fires"], [], []].enumerated() {
            var lines = tour.split(separator: "\n").map(String.init)
            for test in tests {
                lines.insert(
                    #"{"type":"failure","after":6,"test":"\#(test)","kind":"expectation","message":"no","file":"T.swift","line":3}"#,
                    at: lines.count - 1)
            }
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(
                to: directory.appendingPathComponent("run-\(run).cogtrace"))
        }
        let result = try run(["python3", "-c", "import duckdb, sys; print(duckdb.sql(sys.argv[1]).fetchall())", query])
        #expect(result.status == 0)
        #expect(
            result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "[('Alert.fires', 3), ('Zip.moves', 1)]")
    }
}
