import CogTrace
import CogTraceFixtures
import Foundation

/// Many CI runs on an engine a team already runs: a fleet of `traceCount` synthetic traces,
/// each with CI metadata (10 commits, 100 runs), written as Hive-partitioned tables by the real
/// `coginspect DIR -c 'export tables OUT'`, converted to Parquet by `Scripts/tables-to-parquet`,
/// and asked the cross-run question of docs/recording-ci-failures.md with DuckDB over JSON
/// Lines and over Parquet. Needs `coginspect` beside `cog-bench`, and python3 with duckdb for
/// the conversion and the queries (those are skipped, saying so, without it). Run from the
/// package root, where the script and the docs are.
enum FleetSection {
    static func run(traceCount: Int, turnsPerTrace: Int) throws -> [Measurement] {
        let inspector = try ProcessRun.inspector(for: "fleet")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cog-bench-fleet-\(getpid())")
        let traces = folder.appendingPathComponent("traces")
        try FileManager.default.createDirectory(at: traces, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for index in 0..<traceCount {
            var trace = SyntheticWeatherTrace(turns: turnsPerTrace)
            trace.runMetadata = TraceRunMetadata(
                commit: String(format: "c%02d", index % 10), branch: "main", job: "test", run: "\(1_000 + index % 100)",
                attempt: 1, test: "WeatherTests.case\(index % 20)")
            _ = try trace.write(to: traces.appendingPathComponent(String(format: "run-%05d.cogtrace", index)))
        }
        var measurements: [Measurement] = []
        var rows: [[String]] = []
        func record(_ name: String, _ milliseconds: [Double], note: String = "") {
            measurements.append(
                Measurement(section: "fleet", name: name, variant: "\(traceCount) traces", samples: milliseconds))
            let sorted = milliseconds.sorted()
            rows.append([name, String(format: "%.0f", sorted[sorted.count / 2]), "\(sorted.count)", note])
        }
        let tables = folder.appendingPathComponent("fleet")
        let export = try ProcessRun(inspector, [traces.path, "-c", "export tables \(tables.path)"])
        record("export tables", [export.milliseconds], note: "\(directorySize(tables) >> 20) MB of JSON Lines")

        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let converter = root.appendingPathComponent("Scripts/tables-to-parquet")
        let docs = root.appendingPathComponent("docs/recording-ci-failures.md")
        let python = URL(fileURLWithPath: "/usr/bin/env")
        let probe = try? ProcessRun(python, ["python3", "-c", "import duckdb; print('yes')"], capturesOutput: true)
        let hasDuckDB = probe?.output.hasPrefix("yes") ?? false
        guard hasDuckDB, FileManager.default.fileExists(atPath: converter.path),
            let documented = try? String(contentsOf: docs, encoding: .utf8)
        else {
            print("fleet: python3 with duckdb, Scripts/ or docs/ is not here; the conversion and queries are skipped")
            return measurements
        }
        let parquet = folder.appendingPathComponent("fleet-parquet")
        let conversion = try ProcessRun(python, ["python3", converter.path, tables.path, parquet.path])
        record("tables-to-parquet", [conversion.milliseconds], note: "\(directorySize(parquet) >> 20) MB of Parquet")

        // The documented query, over this fleet; no synthetic state recomputes more than 3 times
        // in one turn, so the threshold is 0 to give it rows to find.
        let block = documented.components(separatedBy: "```sql\n").dropFirst().first {
            $0.contains("hive_partitioning")
        }
        guard let query = block?.components(separatedBy: "\n```").first else {
            throw BenchFailure("docs/recording-ci-failures.md has no DuckDB query over the tables")
        }
        let overJSON = query.replacingOccurrences(of: "'fleet/", with: "'\(tables.path)/")
            .replacingOccurrences(of: "> 3", with: "> 0")
        let overParquet = overJSON.replacingOccurrences(
            of: "*.jsonl', format = 'newline_delimited',", with: "*.parquet',"
        )
        .replacingOccurrences(of: "read_json(", with: "read_parquet(")
        .replacingOccurrences(of: "\(tables.path)/", with: "\(parquet.path)/")
        let timing = """
            from sys import argv
            from time import monotonic
            from duckdb import sql
            for _ in range(5):
                started = monotonic(); rows = sql(argv[1]).fetchall()
                print(f"{(monotonic() - started) * 1000:.1f} {len(rows)}")
            """
        for (name, text) in [("cross-run query, JSON Lines", overJSON), ("cross-run query, Parquet", overParquet)] {
            let run = try ProcessRun(python, ["python3", "-c", timing, text], capturesOutput: true)
            let samples = run.output.split(separator: "\n").compactMap { line in Double(line.split(separator: " ")[0]) }
            let found = run.output.split(separator: "\n").first?.split(separator: " ").last.map(String.init) ?? "?"
            guard !samples.isEmpty else { throw BenchFailure("the DuckDB query failed: \(name)") }
            record(name, samples, note: "\(found) rows")
        }
        print("fleet (\(traceCount) synthetic traces of \(turnsPerTrace) turns with CI metadata)")
        print(table(["step", "median ms", "runs", ""], rows))
        print()
        return measurements
    }

    private static func directorySize(_ url: URL) -> Int {
        let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.fileSizeKey])
        var total = 0
        while let file = files?.nextObject() as? URL {
            total += (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        }
        return total
    }
}
