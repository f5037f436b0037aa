import Foundation
import Testing

/// `export test` writes Swift that parses whatever the trace holds, and embeds the recording
/// byte for byte: a title or name that is a keyword, a raw CR used as JSON whitespace, C1
/// controls and bidi overrides in labels and values.
@Suite("Export test always parses", .enabled(if: Executables.onPath("swiftc") != nil, "needs swiftc"))
struct ExportTestParsesTests {
    private static let swiftc = Executables.onPath("swiftc")

    /// A scratch folder for one test; the caller removes it.
    private func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parses-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The tour with a keyword for a title, a raw CR between two members, and a C1 control and
    /// a bidi override inside a label.
    private func hostileTour(in folder: URL, title: String) throws -> URL {
        var text = try String(
            contentsOf: Executables.packageRoot.appendingPathComponent("Recordings/tour.cogtrace"), encoding: .utf8)
        text = text.replacingOccurrences(of: #""title":"tour""#, with: #""title":"\#(title)""#)
        text = text.replacingOccurrences(of: #"{"type":"state","id":1,"#, with: "{\"type\":\"state\",\r\"id\":1,")
        text = text.replacingOccurrences(
            of: #""label":"weather.service""#, with: "\"label\":\"weather.\u{9B}31m\u{202E}ecivres\u{2028}\"")
        let url = folder.appendingPathComponent("hostile.cogtrace")
        try Data(text.utf8).write(to: url)
        return url
    }

    private func parses(_ file: URL) throws -> (Bool, String) {
        let outcome = try Executables.run(try #require(Self.swiftc), ["-parse", file.path])
        return (outcome.status == 0, outcome.standardError)
    }

    @Test(arguments: ["class", "if", "self", "init", "default", "protocol", "_"])
    func aTitleThatIsAKeywordGivesAFunctionNameThatIsNot(_ title: String) throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = try hostileTour(in: folder, title: title)
        let file = folder.appendingPathComponent("Replay.swift")
        let outcome = try Executables.coginspect([trace.path, "-c", "export test \(file.path)"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains("func \(title)()"), "\(title)")
        let (ok, errors) = try parses(file)
        #expect(ok, "\(title): \(errors)")
        let named = try Executables.coginspect([trace.path, "-c", "export test --name \(title)"])
        #expect(named.status == 1 && named.standardError.contains("is a Swift keyword"), "\(named.standardError)")
    }

    /// The embedded recording, compiled and printed, is the trace's bytes through its last turn.
    @Test func theEmbeddedRecordingIsTheTraceByteForByte() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = try hostileTour(in: folder, title: "tour")
        let outcome = try Executables.coginspect([trace.path, "-c", "export test"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let source = outcome.standardOutput
        #expect(
            !source.unicodeScalars.contains { $0 == "\r" || $0 == "\u{9B}" || $0 == "\u{202E}" || $0 == "\u{2028}" })
        // The literal alone, printed by a program of its own.
        let start = try #require(source.range(of: "static let recording = "))
        let literal = source[start.upperBound...].dropLast(2)  // the closing brace of the suite
        let program = folder.appendingPathComponent("main.swift")
        try Data(("let recording = " + literal + "\nprint(recording, terminator: \"\")\n").utf8).write(to: program)
        let binary = folder.appendingPathComponent("printer")
        let built = try Executables.run(try #require(Self.swiftc), [program.path, "-o", binary.path])
        try #require(built.status == 0, "\(built.standardError)")
        let printed = try Executables.run(binary, [])
        let original = try Data(contentsOf: trace)
        let bytes = Data(printed.standardOutput.utf8)
        #expect(!bytes.isEmpty && original.starts(with: bytes), "the recording is embedded exactly")
        #expect(bytes.contains(0x0D), "the CR is kept as a CR")
    }

    /// Every hostile fixture that exports gives a file that parses.
    @Test func everyHostileFixtureExportsToSwiftThatParses() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixtures = Executables.packageRoot.appendingPathComponent("Tests/coginspectTests/Fixtures/Hostile")
        var exported = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted() {
            let file = folder.appendingPathComponent("\(name).swift")
            let outcome = try Executables.coginspect([
                fixtures.appendingPathComponent(name).path, "-c", "export test \(file.path)",
            ])
            guard outcome.status == 0 else { continue }
            exported += 1
            let (ok, errors) = try parses(file)
            #expect(ok, "\(name): \(errors)")
        }
        #expect(exported >= 3, "most fixtures export")
    }
}
