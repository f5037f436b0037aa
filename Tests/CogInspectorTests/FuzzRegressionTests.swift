import CogInspectorExport
import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

@testable import CogInspector

/// Replays every input in `Fixtures/FuzzRegressions`: traces that once crashed, hung or
/// overflowed the reader or a command, and command lines that did the same. Each must now load or
/// be refused with an error naming a line, and every command must return or throw, never trap.
/// `Scripts/fuzz` seeds its corpus from these files; a new finding, once fixed, joins them.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/FuzzRegressions")

    nonisolated static func files(_ kind: String) -> [String] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/FuzzRegressions/\(kind)")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// The commands run on every trace that loads: each look, travel, compare and export.
    private static let probes = [
        "info", "turns", "first", "step 3", "last", "back 2", "state", "leases", "find a", "diff 0 1",
        "export dot --turn 1", "export mermaid", "export json", "export chrome", "sql SELECT count(*) FROM events",
    ]

    @Test(arguments: files("reader"))
    func aHostileTraceLoadsOrIsRefusedWithALine(_ name: String) throws {
        let bytes = Array(try Data(contentsOf: Self.directory.appendingPathComponent("reader/\(name)")))
        let trace: TraceFile
        do {
            trace = try TraceFile.parse(bytes: bytes)
        } catch {
            #expect(error.line > 0 || error.message.contains("header"), "\(name): \(error)")
            return
        }
        for sequence in trace.turnSequences {
            _ = try? trace.turn(sequence)
            _ = try? trace.snapshot(after: sequence)
        }
        let session = InspectorSession(trace: trace, source: name, catalog: .standard)
        for label in trace.states.values.map(\.label).sorted() {
            _ = try? session.execute("why \(label)")
            _ = try? session.execute("export dot --focus \(label)")
        }
        var ran = 0
        for command in Self.probes {
            _ = try? session.execute(command)
            ran += 1
        }
        #expect(ran == Self.probes.count)
    }

    @Test(arguments: files("commands"))
    func hostileCommandLinesReturnOrThrow(_ name: String) throws {
        let text = try String(contentsOf: Self.directory.appendingPathComponent("commands/\(name)"), encoding: .utf8)
        let session = try DiffTests.session("tour")
        var answered = 0
        var refused = 0
        let lines = text.split(separator: "\n")
        for line in lines {
            do {
                _ = try session.execute(String(line))
                answered += 1
            } catch {
                refused += 1
                #expect(!error.message.isEmpty)
            }
        }
        #expect(answered + refused == lines.count, "every line was run")
        #expect(!lines.isEmpty, "\(name) holds commands")
        #expect(session.turns.contains(session.cursor), "the cursor stays on a turn")
    }

    @Test func theLimitsAreNamedWhenExceeded() throws {
        let session = try DiffTests.session("tour")
        let deep = String(repeating: "(", count: 100) + "exists weather.isNiceHere" + String(repeating: ")", count: 100)
        #expect(throws: InspectorError("expression nests deeper than 64 levels of 'not' and parentheses")) {
            try session.execute("bisect \(deep)")
        }
        #expect(throws: InspectorError("a delay is 0 to 10000 milliseconds, not -5")) {
            try session.execute("play 1..2 --delay -5")
        }
        let header =
            #"{"type":"header","format":"cogtrace","version":"1.0","minReader":"1.0","producer":"p","run":"r","title":"t","clock":"virtual","mode":"ring","capacity":1,"keyframeEvery":1}"#
        let huge =
            header + "\n"
            + #"{"type":"turn","seq":9223372036854775807,"name":"x","origin":"op","cause":null,"start":0,"duration":0,"events":[]}"#
        #expect(throws: TraceReadError(line: 2, message: "turn 'seq' 9223372036854775807 is outside 0..<2^53")) {
            try TraceFile.parse(huge)
        }
        var limits = JSONParser.Limits()
        limits.maxElements = 3
        let error = #expect(throws: JSONParseError.self) { try JSONParser.parse("[1,2,3,4]", limits: limits) }
        #expect(error?.description == "column 8: array with more than 3 elements")
    }
}
