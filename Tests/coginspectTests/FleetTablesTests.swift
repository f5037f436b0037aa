import Foundation
import Testing

/// `export tables` over a generated fleet of CI runs, asked the cross-run question of
/// docs/recording-ci-failures.md with DuckDB, as written there, in JSON Lines and in Parquet.
@Suite("Fleet tables", .serialized, .enabled(if: DuckDB.isAvailable, "python3 with the duckdb package is not here"))
struct FleetTablesTests {
    private let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// One generated run of one test: how many times `cart.total` recomputes in each turn.
    struct Run {
        let commit: String
        let run: String
        let test: String
        let recomputesPerTurn: [Int]
    }

    /// A trace of `run`: `cart.items` written and `cart.total` recomputed as often as it says,
    /// with the CI metadata the recorder writes.
    static func trace(of run: Run) -> String {
        var lines = [
            #"{"type":"header","format":"cogtrace","version":"1.1","minReader":"1.0","producer":"test","run":"virtual:\#(run.test)","title":"\#(run.test)","clock":"virtual","mode":"ring","capacity":10000,"keyframeEvery":1000,"ci":{"commit":"\#(run.commit)","branch":"main","job":"test","run":"\#(run.run)","attempt":1,"test":"\#(run.test)"}}"#,
            #"{"type":"state","id":1,"label":"cart.items","decl":"cart.items","key":null,"shape":"manual","valueType":"Int","lifetime":"app","policy":null}"#,
            #"{"type":"state","id":2,"label":"cart.total","decl":"cart.total","key":null,"shape":"automatic","valueType":"Int","lifetime":"app","policy":null}"#,
            #"{"type":"keyframe","before":1,"states":[],"registrations":[]}"#,
        ]
        var items = 0
        for (index, count) in run.recomputesPerTurn.enumerated() {
            var events: [String] = []
            if index == 0 {
                events += [
                    #"{"e":"created","s":1,"v":{"t":"0","j":0}}"#, #"{"e":"created","s":2,"v":{"t":"0","j":0}}"#,
                ]
            }
            for _ in 0..<count {
                events.append(
                    #"{"e":"write","s":1,"old":{"t":"\#(items)","j":\#(items)},"new":{"t":"\#(items + 1)","j":\#(items + 1)}}"#
                )
                events.append(
                    #"{"e":"recompute","s":2,"old":{"t":"\#(items * 2)","j":\#(items * 2)},"new":{"t":"\#(items * 2 + 2)","j":\#(items * 2 + 2)},"changed":true,"by":1}"#
                )
                items += 1
            }
            lines.append(
                #"{"type":"turn","seq":\#(index + 1),"name":"addItems(_:)","origin":"op","cause":null,"start":0,"duration":0,"events":[\#(events.joined(separator: ","))]}"#
            )
        }
        lines.append(
            #"{"type":"trailer","ok":true,"turns":\#(run.recomputesPerTurn.count),"evicted":0,"dropped":0,"keyframes":1}"#
        )
        return lines.joined(separator: "\n") + "\n"
    }

    /// The query docs/recording-ci-failures.md shows, over `tables`, asking about `cart.total`;
    /// Parquet when `parquet`.
    static func documentedQuery(over tables: URL, parquet: Bool) throws -> String {
        let docs = try String(
            contentsOf: Executables.packageRoot.appendingPathComponent("docs/recording-ci-failures.md"), encoding: .utf8
        )
        let block = try #require(
            docs.components(separatedBy: "```sql\n").dropFirst().first { $0.contains("hive_partitioning") })
        var query = try #require(block.components(separatedBy: "\n```").first)
            .replacingOccurrences(of: "'fleet/", with: "'\(tables.path)/")
            .replacingOccurrences(of: "'weather.isNice[10001]'", with: "'cart.total'")
        if parquet {
            query = query.replacingOccurrences(of: "*.jsonl', format = 'newline_delimited',", with: "*.parquet',")
                .replacingOccurrences(of: "read_json(", with: "read_parquet(")
        }
        return query
    }

    @Test func theCrossRunQueryNamesTheTestsThatRecomputedMoreThanThreeTimesInATurn() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let traces = directory.appendingPathComponent("ci-traces")
        try FileManager.default.createDirectory(at: traces, withIntermediateDirectories: true)
        let runs = [
            Run(commit: "a1", run: "100", test: "Cart.total", recomputesPerTurn: [1, 5, 2]),
            Run(commit: "a1", run: "100", test: "Cart.empty", recomputesPerTurn: [1, 1]),
            Run(commit: "a1", run: "101", test: "Cart.total", recomputesPerTurn: [4]),
            Run(commit: "b2", run: "200", test: "Cart.total", recomputesPerTurn: [3, 3, 3]),
            Run(commit: "b2", run: "200", test: "Cart.tax", recomputesPerTurn: [2, 7]),
            Run(commit: "b2", run: "201", test: "Cart.tax", recomputesPerTurn: [6]),
            Run(commit: "c3", run: "300", test: "Cart.empty", recomputesPerTurn: []),
        ]
        for (index, run) in runs.enumerated() {
            try Data(Self.trace(of: run).utf8).write(to: traces.appendingPathComponent("\(run.test)-\(index).cogtrace"))
        }
        // What the query must say, worked out from the runs themselves.
        var expected: [String: Int] = [:]
        for run in runs {
            guard let most = run.recomputesPerTurn.max(), most > 3 else { continue }
            expected["\(run.commit) \(run.test)"] = max(expected["\(run.commit) \(run.test)"] ?? 0, most)
        }
        let expectedRows = expected.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        #expect(expectedRows == ["a1 Cart.total 5", "b2 Cart.tax 7"])

        let tables = directory.appendingPathComponent("fleet")
        let exported = try Executables.coginspect([traces.path, "-c", "export tables \(tables.path)"])
        #expect(exported.status == 0, "\(exported.standardError)")
        #expect(exported.standardOutput.contains("for 7 traces"), "\(exported.standardOutput)")
        let layout = FileManager.default.fileExists(
            atPath: tables.appendingPathComponent("recomputes/commit=b2/run=201-1/part-Cart.tax-5.jsonl").path)
        #expect(layout, "the parts lie under TABLE/commit=…/run=…/")

        let printRows =
            "import duckdb, sys\nfor row in duckdb.sql(sys.argv[1]).fetchall(): print(' '.join(str(cell) for cell in row))"
        let overJSON = try DuckDB.run([
            "python3", "-c", printRows, try Self.documentedQuery(over: tables, parquet: false),
        ])
        #expect(overJSON.status == 0)
        #expect(overJSON.output.split(separator: "\n").map(String.init) == expectedRows)

        let parquet = directory.appendingPathComponent("fleet-parquet")
        let converted = try DuckDB.run([
            Executables.packageRoot.appendingPathComponent("Scripts/tables-to-parquet").path, tables.path, parquet.path,
        ])
        #expect(converted.status == 0, "\(converted.output)")
        let overParquet = try DuckDB.run([
            "python3", "-c", printRows, try Self.documentedQuery(over: parquet, parquet: true),
        ])
        #expect(overParquet.status == 0)
        #expect(overParquet.output.split(separator: "\n").map(String.init) == expectedRows)

        // A second export into the same tree refuses to replace a part, and --force replaces them.
        let again = try Executables.coginspect([traces.path, "-c", "export tables \(tables.path)"])
        #expect(again.status != 0)
        #expect(again.standardError.contains("exists; add --force to replace it"), "\(again.standardError)")
        let forced = try Executables.coginspect([traces.path, "-c", "export tables --force \(tables.path)"])
        #expect(forced.status == 0, "\(forced.standardError)")
    }

    @Test func aTraceWithoutCIMetadataGoesToTheUnknownCommitUnderItsOwnRun() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let tables = directory.appendingPathComponent("fleet")
        let exported = try Executables.coginspect(["Recordings/tour.cogtrace", "-c", "export tables \(tables.path)"])
        #expect(exported.status == 0, "\(exported.standardError)")
        let runs = try String(
            contentsOf: tables.appendingPathComponent("runs/commit=unknown/run=virtual_tour/part-tour.jsonl"),
            encoding: .utf8)
        #expect(
            runs
                == #"{"trace":"tour.cogtrace","title":"tour","test":null,"branch":null,"job":null,"attempt":null,"run_id":"virtual:tour","turns":25,"failures":0}"#
                + "\n")
        let turns = try String(
            contentsOf: tables.appendingPathComponent("turns/commit=unknown/run=virtual_tour/part-tour.jsonl"),
            encoding: .utf8)
        #expect(turns.split(separator: "\n").count == 25)
        #expect(turns.hasPrefix(#"{"turn":1,"name":"Weather.publishRefreshInterval(_:)","#), "\(turns.prefix(120))")
    }
}
