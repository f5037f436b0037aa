import Foundation
import Testing

/// The exports as a user runs them: every DOT export of every committed recording renders with
/// Graphviz, the Chrome trace holds the fields its format requires, and the SQL examples in the
/// docs return what the docs show.
@Suite("Exports")
struct ExportTests {
    nonisolated static let dot = Executables.onPath("dot")

    @Test(.enabled(if: dot != nil, "needs Graphviz's dot; .ci/run installs it"))
    func everyDOTExportOfEveryRecordingRendersWithoutAWarning() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var rendered = 0
        for recording in Executables.recordings {
            let turns = try turnCount(of: recording)
            var commands = [
                "export dot --to \(scratch.path)/plain.dot --force",
                "export dot --focus weather.currentZip --depth 1 --to \(scratch.path)/focus.dot --force",
            ]
            commands += (1...turns).map { "export dot --turn \($0) --to \(scratch.path)/turn\($0).dot --force" }
            let outcome = try Executables.coginspect([recording] + commands.flatMap { ["-c", $0] })
            #expect(outcome.status == 0, "\(recording): \(outcome.standardError)")
            for file in ["plain", "focus"] + (1...turns).map({ "turn\($0)" }) {
                let input = try String(contentsOf: scratch.appendingPathComponent("\(file).dot"), encoding: .utf8)
                let svg = try Executables.run(try #require(Self.dot), ["-Tsvg"], input: input)
                #expect(svg.status == 0 && svg.standardError.isEmpty, "\(recording) \(file): \(svg.standardError)")
                #expect(svg.standardOutput.contains("<svg"))
                rendered += 1
            }
        }
        #expect(rendered > 100)
    }

    private func turnCount(of recording: String) throws -> Int {
        let outcome = try Executables.coginspect([recording, "-c", "sql SELECT count(*) AS turns FROM turns"])
        return try #require(Int(outcome.standardOutput.split(separator: "\n").last ?? ""))
    }

    @Test(arguments: Executables.recordings)
    func theChromeTraceHasTheFieldsItsFormatRequires(_ recording: String) throws {
        let outcome = try Executables.coginspect([recording, "-c", "export chrome"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        let events = try #require(document["traceEvents"] as? [[String: Any]])
        var open: [String: Int] = [:]
        var flows: [Int: [String]] = [:]
        var turns: [(start: Int, end: Int)] = []
        for event in events {
            let phase = try #require(event["ph"] as? String)
            #expect(event["name"] is String && event["pid"] is Int && event["ts"] is Int, "\(event)")
            #expect(phase == "M" || event["tid"] is Int, "\(event)")
            switch phase {
            case "X":
                let start = try #require(event["ts"] as? Int)
                let duration = try #require(event["dur"] as? Int)
                #expect(duration > 0)
                if event["cat"] as? String == "turn" {
                    #expect(start >= (turns.last?.end ?? 0), "turns do not overlap")
                    turns.append((start, start + duration))
                } else {
                    let turn = try #require(turns.last)
                    #expect(start >= turn.start && start + duration <= turn.end, "\(event) nests in its turn")
                }
            case "b", "e":
                let id = try #require(event["id"] as? String)
                #expect(event["cat"] is String)
                open[id, default: 0] += phase == "b" ? 1 : -1
            case "s", "f":
                flows[try #require(event["id"] as? Int), default: []].append(phase)
            case "C":
                let arguments = try #require(event["args"] as? [String: Any])
                #expect(arguments.values.allSatisfy { $0 is Int || $0 is Double })
            case "M":
                #expect(event["args"] is [String: Any])
            default:
                Issue.record("unexpected phase \(phase)")
            }
        }
        #expect(open.values.allSatisfy { $0 == 0 }, "every async slice that begins ends")
        #expect(flows.values.allSatisfy { $0 == ["s", "f"] }, "every flow starts and finishes")
        #expect(turns.count == (try turnCount(of: recording)))
    }

    @Test func theDocumentedQueriesReturnWhatTheDocsShow() throws {
        let docs = try String(
            contentsOf: Executables.packageRoot.appendingPathComponent("docs/inspector.md"), encoding: .utf8)
        var examples = 0
        for block in docs.components(separatedBy: "```\n$ coginspect ").dropFirst() {
            let body = try #require(block.components(separatedBy: "\n```").first)
            let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let invocation = lines[0]
            let recording = try #require(invocation.split(separator: " ").first.map(String.init))
            let command = try #require(invocation.range(of: " -c \"").map { invocation[$0.upperBound...].dropLast() })
            let outcome = try Executables.coginspect([recording, "-c", String(command)])
            #expect(outcome.status == 0, "\(command): \(outcome.standardError)")
            #expect(outcome.standardOutput == lines.dropFirst().joined(separator: "\n") + "\n", "\(command)")
            examples += 1
        }
        #expect(examples >= 4)
    }

    @Test func exportSqliteWritesAFileTheSqliteShellReads() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tour-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = try Executables.coginspect(["Recordings/tour.cogtrace", "-c", "export sqlite \(file.path)"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let header = try Data(contentsOf: file).prefix(15)
        #expect(String(decoding: header, as: UTF8.self) == "SQLite format 3")
        if let shell = Executables.onPath("sqlite3") {
            let count = try Executables.run(shell, [file.path, "SELECT count(*) FROM turns"], input: "")
            #expect(count.standardOutput == "25\n")
        }
    }

    @Test func exportSqliteAppendAddsTracesToADatabaseItWroteAllOrNothing() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("runs-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: file) }
        let first = try Executables.coginspect(["Recordings/tour.cogtrace", "-c", "export sqlite \(file.path)"])
        #expect(first.status == 0, "\(first.standardError)")
        let added = try Executables.coginspect(
            ["Recordings/map.cogtrace", "Recordings/screens.cogtrace", "-c", "export sqlite --append \(file.path)"])
        #expect(added.status == 0, "\(added.standardError)")
        #expect(added.standardOutput == "added the sql tables of 2 traces to \(file.path)\n")
        // The same trace again: refused, and the database is as it was.
        let before = try Data(contentsOf: file)
        let again = try Executables.coginspect(["Recordings/map.cogtrace", "-c", "export sqlite --append \(file.path)"])
        #expect(again.status == 73)
        #expect(again.standardError.contains("holds 'Recordings/map.cogtrace' already"), "\(again.standardError)")
        #expect(try Data(contentsOf: file) == before)
        if let shell = Executables.onPath("sqlite3") {
            let traces = try Executables.run(
                shell, [file.path, "SELECT trace, count(*) FROM turns GROUP BY trace ORDER BY trace"], input: "")
            #expect(
                traces.standardOutput
                    == "Recordings/map.cogtrace|11\nRecordings/screens.cogtrace|\(try turnCount("screens"))\n"
                    + "Recordings/tour.cogtrace|25\n")
        }
        let notADatabase = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).txt")
        try Data("hello\n".utf8).write(to: notADatabase)
        defer { try? FileManager.default.removeItem(at: notADatabase) }
        let refused = try Executables.coginspect(
            ["Recordings/map.cogtrace", "-c", "export sqlite --append \(notADatabase.path)"])
        #expect(refused.status == 73, "the output is refused, not the command: \(refused.standardError)")
        #expect(refused.standardError.contains("cannot add to '\(notADatabase.path)'"), "\(refused.standardError)")
        #expect(
            try Data(contentsOf: notADatabase) == Data("hello\n".utf8), "a file that is not a database is left alone")
    }

    private func turnCount(_ recording: String) throws -> Int {
        let outcome = try Executables.coginspect([
            "Recordings/\(recording).cogtrace", "-c", "sql SELECT count(*) FROM turns",
        ])
        return Int(
            outcome.standardOutput.split(separator: "\n").dropFirst(2).first?.trimmingCharacters(in: .whitespaces) ?? ""
        ) ?? -1
    }

    @Test func exportMistakesSayWhatWouldBeAccepted() throws {
        let cases: [(String, String)] = [
            ("export", "export needs a format: dot, mermaid, json, chrome, test, sqlite, tables or html"),
            (
                "export svg",
                "unknown export format 'svg'; expected dot, mermaid, json, chrome, test, sqlite, tables or html"
            ),
            ("export dot --depth 2", "--depth goes with --focus STATE"),
            ("export chrome --turn 3", "export chrome covers the whole recording; --turn and --focus do not apply"),
            (
                "export html --turn 3",
                "export html draws every turn of the recording; --turn does not apply (--turns A..B picks a window)"
            ),
            (
                "export html --unfold weather.forecast",
                "export html unfolds a family on a click, or with #unfold=FAMILY in its address"
            ),
            (
                "export html --focus weather.isNiseHere",
                "unknown state 'weather.isNiseHere'; did you mean 'weather.isNiceHere'?"
            ),
            ("export html --focus weather.isNiceHere --depth -1", "a depth must be 0 or more, not -1"),
            (
                "export html --turns 1..2 --focus weather.isNiceHere",
                "weather.isNiceHere is not drawn in the turns the page shows; --turns A..B picks others"
            ),
            ("export html --turns 90..99", "no turn of Recordings/tour.cogtrace lies in 90..99; its turns are 1..25"),
            ("export html --turns 9..3", "range '9..3' ends before it starts"),
            ("export dot --turns 3..4", "--turns goes with export test FILE.swift or export html"),
            ("export dot --append", "--append goes with export sqlite FILE"),
            (
                "export sqlite --append --force x.db",
                "--append adds to 'x.db' and --force would replace it; give one of them"
            ),
            ("export html --trace nowhere.cogtrace", "cannot open 'nowhere.cogtrace': no such file or directory"),
            ("export html --layout radial", "unknown layout 'radial'; expected dot or layered"),
            ("export dot --layout dot", "--layout goes with export html"),
            (
                "export dot --focus weather.isNiseHere",
                "unknown state 'weather.isNiseHere'; did you mean 'weather.isNiceHere'?"
            ),
            (
                "sql DELETE FROM turns",
                "sql only reads; 'DELETE FROM turns' would change the tables (use export sqlite FILE for a copy to change)"
            ),
            ("sql SELECT label FROM nowhere", "sql: no such table: nowhere in 'SELECT label FROM nowhere'"),
            ("sql SELECT 1; SELECT 2", "sql runs one statement at a time; 'SELECT 1; SELECT 2' has more"),
            (
                "sql ATTACH DATABASE 'elsewhere.db' AS other",
                "sql: too many attached databases - max 0 in 'ATTACH DATABASE 'elsewhere.db' AS other'"
            ),
        ]
        for (command, message) in cases {
            let outcome = try Executables.coginspect(["Recordings/tour.cogtrace", "-c", command])
            #expect(outcome.status == 1, "\(command)")
            #expect(outcome.standardError == "-c:1: error: \(message)\n")
        }
    }
}
