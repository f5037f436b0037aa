import Foundation
import Testing

/// `export test`: the Swift file it writes, its options and its refusals, run as a user runs
/// the real executable. (The files it wrote for the bundled recordings compile and pass in
/// `WeatherTests/Replays`; `.ci/run` compiles one in the TipJar example and breaks the app.)
@Suite("Export test")
struct ExportTestCommandTests {
    static let tipJar = "Tests/coginspectTests/Fixtures/TipJarTests.theTotalIncludesTheTip.cogtrace"

    /// The committed replay tests are exactly what `export test --check all` writes today: a
    /// change to the generator shows up here, and the tests are regenerated, not hand-edited.
    @Test(arguments: Executables.recordings)
    func theCommittedWeatherReplayTestsAreWhatTheExportWrites(_ recording: String) throws {
        let outcome = try Executables.coginspect([recording, "-c", "export test --check all"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let stem = URL(fileURLWithPath: recording).deletingPathExtension().lastPathComponent
        let suite = stem.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        let committed = try String(
            contentsOf: Executables.packageRoot.appendingPathComponent(
                "Tests/WeatherTests/Replays/\(suite)Replay.swift"),
            encoding: .utf8)
        #expect(outcome.standardOutput == committed, "regenerate: coginspect \(recording) -c 'export test --check all'")
    }

    /// An async result recorded as text only cannot be answered in a replay: the file and the
    /// export's answer say so before anyone runs the test, naming the type and the first turn.
    @Test func anAsyncResultRecordedAsTextOnlyIsNamedUpFront() throws {
        let tour = try String(
            contentsOf: Executables.packageRoot.appendingPathComponent("Recordings/tour.cogtrace"), encoding: .utf8)
        let structured = #","j":{"condition":"clear","heatAdvisory":false,"temperatureF":75}"#
        #expect(tour.contains(structured))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("text-only-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("tour.cogtrace")
        try tour.replacingOccurrences(of: structured, with: "").write(to: trace, atomically: true, encoding: .utf8)
        let outcome = try Executables.coginspect([trace.path, "-c", "export test --check all"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(
            outcome.standardOutput.contains(
                "// Cannot replay yet: these async results were recorded as text only"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("//   weather.forecast: Optional<WeatherReading>, first at turn 6"))
        #expect(!outcome.standardOutput.contains("warning:"), "the Swift file on standard output stays Swift")
        let written = try Executables.coginspect([
            trace.path, "-c", "export test --check all --to \(folder.path)/TourReplay.swift",
        ])
        #expect(
            written.standardOutput.contains(
                "the test cannot replay yet: async results recorded as text only (weather.forecast: Optional<WeatherReading>)"
            ),
            "\(outcome.standardError)")
    }

    @Test func theFileNamesItsAssemblyTurnsAndCheckAndEmbedsTheRecordingThroughItsLastTurn() throws {
        let outcome = try Executables.coginspect([
            Self.tipJar, "-c", "export test --turns 2..2 --name totalAfterTheTip --assembly Tests.TipJarApp",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let text = outcome.standardOutput
        #expect(text.contains("@Test func totalAfterTheTip() async throws {"))
        #expect(text.contains("@Suite struct TotalAfterTheTipReplay {"))
        #expect(text.contains("check: .derived,"))
        #expect(text.contains("turns: 2...2, skipping: []"))
        #expect(text.contains(").run(Tests.TipJarApp.self)"))
        #expect(text.contains(#"{"type":"turn","seq":2,"#))
        #expect(text.contains("// Every recorded input is rebuilt from its recorded value."))
    }

    @Test func byDefaultTheTestIsNamedForTheRecordingAndTheAssemblyForItsLabels() throws {
        let outcome = try Executables.coginspect([Self.tipJar, "-c", "export test --turns ..1"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("@Test func theTotalIncludesTheTip() async throws {"))
        #expect(outcome.standardOutput.contains(").run(TipJarAssembly.self)"))
        #expect(outcome.standardOutput.contains("turns: 1...1"))
        #expect(!outcome.standardOutput.contains(#""seq":2"#), "turn 2 is past the last turn checked")
    }

    /// A value recorded as text only cannot be written back: the file says so and skips it.
    @Test func aSourceWhoseValueIsTextOnlyIsSkippedWithANote() throws {
        let original = try String(
            contentsOf: Executables.packageRoot.appendingPathComponent(Self.tipJar), encoding: .utf8)
        let textOnly = original.replacingOccurrences(of: #"{"t":"4000","j":4000}"#, with: #"{"t":"4000"}"#)
        #expect(textOnly != original)
        let file = try Self.scratchFile("text-only.cogtrace", textOnly)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let outcome = try Executables.coginspect([file, "-c", "export test"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("//   tipJar.billCents: Int"))
        #expect(outcome.standardOutput.contains(#"skipping: ["tipJar.billCents"]"#))
    }

    @Test(arguments: [
        ("export test --check values", "--check takes derived or all, not 'values'"),
        ("export test --name 3rd", "--name '3rd' is not a Swift function name"),
        ("export test --assembly 'Tip Jar'", "--assembly 'Tip Jar' is not a Swift type name"),
        ("export test --turns 5..9", "--turns 5..9 is outside the recording's turns 1..2"),
        ("export test --turn 2", "export test replays whole turns; --turn does not apply"),
        ("export test --layout dot", "--layout goes with export html"),
    ])
    func aWrongOptionIsRefusedSayingWhatWouldDo(_ command: String, _ message: String) throws {
        let outcome = try Executables.coginspect([Self.tipJar, "-c", command])
        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
    }

    @Test func anExistingFileIsReplacedOnlyWithForce() throws {
        let file = try Self.scratchFile("Existing.swift", "// mine\n")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let refused = try Executables.coginspect([Self.tipJar, "-c", "export test \(file)"])
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("exists; add --force to replace it"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "// mine\n")
        let forced = try Executables.coginspect([Self.tipJar, "-c", "export test \(file) --force"])
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(forced.standardOutput.contains("wrote a replay test of turns 1..2"))
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("import CogTesting"))
    }

    /// A recording that does not start at turn 1 cannot be replayed from the app's start.
    @Test func aRecordingWithoutItsFirstTurnsIsRefused() throws {
        let original = try String(
            contentsOf: Executables.packageRoot.appendingPathComponent(Self.tipJar), encoding: .utf8)
        let lines = original.split(separator: "\n").filter {
            !$0.contains(#""seq":1,"#) && !$0.contains(#""after":1,"#)
        }
        let file = try Self.scratchFile("late.cogtrace", lines.joined(separator: "\n") + "\n")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let outcome = try Executables.coginspect([file, "-c", "export test"])
        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains("needs the whole run from turn 1"), "\(outcome.standardError)")
    }

    private static func scratchFile(_ name: String, _ text: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "export-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
}
