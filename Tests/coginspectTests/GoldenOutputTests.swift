import Foundation
import Testing

/// Batch output of every command on the committed recordings, compared with golden files in
/// `Fixtures/`. Set `UPDATE_GOLDEN=1` to rewrite those that differ after an intended change: the
/// run then fails, naming each file it rewrote, until it is run again without it.
@Suite("Golden batch output")
struct GoldenOutputTests {
    nonisolated static let scripts: [(name: String, trace: String, commands: [String])] = [
        (
            "tour-orient", "Recordings/tour.cogtrace",
            ["info", "help", "help why", "set width 40", "show settings", "where", "quit", "info"]
        ),
        (
            "tour-travel", "Recordings/tour.cogtrace",
            [
                "turns 1..10", "turns --touching weather.isNiceHere", "turns --name *pending", "turn 6", "goto 9",
                "step 2",
                "back", "first", "last", "play 20..22",
            ]
        ),
        (
            "tour-look", "Recordings/tour.cogtrace",
            [
                "goto 11", "get weather.isNiceHere", "get weather.forecast[10001]", "state weather.is*",
                "deps weather.isNiceHere",
                "users weather.currentZip", "leases", "async weather.forecast[10001]", "find 10001", "last",
                "find heat",
            ]
        ),
        (
            "tour-explain", "Recordings/tour.cogtrace",
            [
                "goto 11", "why weather.isNiceHere", "history weather.isNiceHere", "last", "why weather.isNice[98101]",
            ]
        ),
        ("map-leases", "Recordings/map.cogtrace", ["leases weather.mapLocation", "history weather.mapLocation"]),
        ("stale-refresh-async", "Recordings/stale-refresh.cogtrace", ["async weather.forecast[10001]"]),
        (
            "tour-compare", "Recordings/tour.cogtrace",
            [
                "diff 8 9", "diff 12 13 --only values", "diff 5 25 --only edges,leases,lifecycle", "diff 17",
                "bisect 'weather.isNice[10001] == true'", "expect weather.forecast[10001].temperatureF > 70",
                "diff --trace Recordings/switching.cogtrace", "diff --trace Recordings/tour.cogtrace --from 20",
            ]
        ),
        (
            "tour-export", "Recordings/tour.cogtrace",
            [
                "export dot --turn 9", "export mermaid --turn 9 --focus weather.isNiceHere --depth 1",
                "export json --turn 6 --focus weather.isNice[10001] --depth 1", "export dot", "export chrome",
            ]
        ),
        (
            "screens-export", "Recordings/screens.cogtrace",
            [
                "export dot --turn 9 --focus weather.openDetailScreens", "export mermaid --turn 14",
                "export json --turn 13",
                "sql SELECT step, count(*) AS steps FROM async GROUP BY step ORDER BY step",
            ]
        ),
        (
            "outage-compare", "Recordings/service-outage.cogtrace",
            ["diff 9 10 --only async", "bisect status weather.forecast[10001] == failure"]
        ),
    ]

    @Test(arguments: scripts.map(\.name))
    func textMatchesItsGoldenFile(_ name: String) throws {
        try check(name, json: false)
    }

    @Test(arguments: scripts.map(\.name))
    func jsonMatchesItsGoldenFile(_ name: String) throws {
        try check(name, json: true)
    }

    /// `help` and `help why` laid out for a terminal of `columns` columns (as `COLUMNS` says when
    /// output is not a terminal): no line wider, nothing cut short.
    @Test(arguments: [80, 200])
    func helpFitsTheWidth(_ columns: Int) throws {
        let outcome = try Executables.coginspect(
            ["-c", "help", "-c", "help why", "-c", "help export"], environment: ["COLUMNS": "\(columns)"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 40)
        #expect(lines.filter { $0.count > columns }.isEmpty, "lines wider than \(columns)")
        #expect(!outcome.standardOutput.contains("…"), "help cut something short")
        try expectGolden(outcome.standardOutput, "help-\(columns).txt")
    }

    /// Tables and an error laid out for 80 and 100 columns: `turns` of a failing test's trace (a
    /// long failure message and the cursor marker), `sql SELECT *`, `history`, and an error
    /// longer than the line. No line is wider than the width, every table stays a table (its
    /// widest column wraps in place), and the cursor marker is never alone on a line.
    @Test(arguments: [80, 100])
    func tablesAndErrorsFitTheWidth(_ columns: Int) throws {
        let trace = "Tests/coginspectTests/Fixtures/TipJarTests.theTotalIncludesTheTip.cogtrace"
        let commands = [
            "turns", "sql SELECT * FROM turns", "history tipJar.totalCents",
            "get tipJar.totalCents.and.a.field.that.does.not.exist.in.this.value.at.all.nor.anywhere.else",
        ]
        let outcome = try Executables.coginspect(
            [trace, "--keep-going"] + commands.flatMap { ["-c", $0] }, environment: ["COLUMNS": "\(columns)"])
        #expect(outcome.status == 1, "the last command fails: \(outcome.standardError)")
        for (stream, text) in [("stdout", outcome.standardOutput), ("stderr", outcome.standardError)] {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.filter { $0.count > columns }.isEmpty, "\(stream): lines wider than \(columns)")
            #expect(
                !lines.contains { $0.trimmingCharacters(in: .whitespaces) == "◀" }, "\(stream): a marker alone")
        }
        #expect(!outcome.standardOutput.contains(" / "), "a table fell back to stacked rows")
        try expectGolden(
            outcome.standardOutput + "--- stderr\n" + outcome.standardError, "tables-\(columns).txt")
    }

    /// Compares `output` with the golden file `name`. With `UPDATE_GOLDEN=1` it rewrites a file
    /// that differs and records that it did, so an update run never passes as if nothing changed:
    /// review the diff, then run again without it.
    private func expectGolden(_ output: String, _ name: String) throws {
        let golden = Executables.fixtures.appendingPathComponent(name)
        let expected = try? String(contentsOf: golden, encoding: .utf8)
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1", output != expected {
            try Data(output.utf8).write(to: golden)
            Issue.record("rewrote \(name); review the diff, then run the tests again without UPDATE_GOLDEN")
            return
        }
        #expect(output == expected, "output differs from \(name)")
    }

    private func check(_ name: String, json: Bool) throws {
        let script = try #require(Self.scripts.first { $0.name == name })
        let arguments = [script.trace] + script.commands.flatMap { ["-c", $0] } + (json ? ["--json"] : [])
        let outcome = try Executables.coginspect(arguments)
        // tour-compare compares the tour with switching, which differ: a "no" answer, exit 1.
        #expect(outcome.status == (name == "tour-compare" ? 1 : 0), "\(outcome.standardError)")
        try expectGolden(outcome.standardOutput, "\(name)\(json ? ".json" : "").txt")
    }
}
