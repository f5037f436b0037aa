import Foundation
import Testing

/// The hand-made hostile traces of `Fixtures/Hostile/` (made by `Scripts/make-hostile-traces`),
/// each opened by the real `coginspect` and put through every command: no crash, no raw control
/// byte on either stream, and every answer that depends on an undecodable turn says so.
@Suite("Hostile traces")
struct HostileTraceTests {
    static let directory = Executables.fixtures.appendingPathComponent("Hostile")
    static let traces = [
        "version-overflow", "clock-overflow", "undecodable-turn", "control-markers", "truncated-header",
        "invalid-utf8", "raw-escape", "syntax-in-value", "missing-turns", "misplaced-keyframe", "undeclared-state",
    ]
    /// The traces whose turn 6 is not JSON: a missing member, a byte that is not UTF-8, a raw ESC
    /// inside a string, a syntax error inside a nested value.
    static let undecodableTurn6 = ["undecodable-turn", "invalid-utf8", "raw-escape", "syntax-in-value"]
    /// The commands whose answer depends on turn 6 when the cursor is at 7: each must fail or
    /// warn. (`where`, `step`, `last` and `turn 7` show only other turns' records.)
    static let commandsReadingTurn6 = [
        "info", "turns", "turns --touching weather.isNiceHere", "turn 6", "play 5..7", "get weather.currentZip",
        "get weather.isNiceHere", "state", "deps weather.isNiceHere", "users weather.currentZip", "leases",
        "async weather.forecast[10001]", "find e", "why weather.isNiceHere", "history weather.isNiceHere",
        "diff 5 8", "diff 1", "bisect weather.isNiceHere == true", "expect weather.isNiceHere == true",
        "export dot", "export dot --turn 6", "export mermaid", "export json", "export chrome",
    ]

    /// Every command, with states of the tour (the hostile traces are built from it).
    static let commands = [
        "info", "turns", "turns --touching weather.isNiceHere", "turns --name 'pending'", "turn 6", "turn 7",
        "goto 7", "where", "step", "back 2", "first", "last", "play 1..3", "get weather.currentZip",
        "get weather.isNiceHere", "state", "deps weather.isNiceHere", "users weather.currentZip", "leases",
        "async weather.forecast[10001]", "find e", "why weather.isNiceHere", "history weather.isNiceHere",
        "why weather.isNiseHere", "diff 5 8", "diff 1", "bisect weather.isNiceHere == true",
        "expect weather.isNiceHere == true", "export dot", "export dot --turn 6", "export mermaid",
        "export json", "export chrome", "sql SELECT name, origin FROM turns LIMIT 30", "help", "help why",
    ]

    @Test(arguments: traces)
    func everyCommandAnswersWithoutACrashOrARawControlByte(_ name: String) throws {
        let path = Self.directory.appendingPathComponent("\(name).cogtrace").path
        var script = Self.commands
        script.insert("goto 7", at: 0)
        let outcome = try Executables.coginspect([path, "--keep-going"] + script.flatMap { ["-c", $0] })
        #expect(outcome.exited, "\(name): coginspect died of a signal")
        #expect([0, 1, 3, 65].contains(outcome.status), "\(name): status \(outcome.status)\n\(outcome.standardError)")
        for (stream, text) in [("stdout", outcome.standardOutput), ("stderr", outcome.standardError)] {
            let raw = text.unicodeScalars.filter(Self.isRawControl)
            #expect(raw.isEmpty, "\(name) \(stream): \(raw.count) raw control characters")
        }
        let json = try Executables.coginspect([path, "--keep-going", "--json"] + script.flatMap { ["-c", $0] })
        #expect(json.exited, "\(name): coginspect --json died of a signal")
        let raw = (json.standardOutput + json.standardError).unicodeScalars.filter(Self.isRawControl)
        #expect(raw.isEmpty, "\(name) --json: \(raw.count) raw control characters")
    }

    @Test(arguments: undecodableTurn6)
    func answersAcrossAnUndecodableTurnCarryAWarning(_ name: String) throws {
        let path = Self.directory.appendingPathComponent("\(name).cogtrace").path
        let warning = "warning: turn 6 could not be decoded"
        var checked = 0
        for command in ["why weather.isNiceHere", "history weather.isNiceHere", "info", "turns"] {
            let outcome = try Executables.coginspect([path, "-c", "goto 7", "-c", command])
            #expect(outcome.standardOutput.contains(warning), "\(name) \(command): \(outcome.standardOutput)")
            checked += 1
        }
        #expect(checked == 4)
        // `find` reads every turn's name, the bad turn's too, so it warns wherever the cursor is.
        let find = try Executables.coginspect([path, "-c", "goto 5", "-c", "find e"])
        #expect(find.standardOutput.contains(warning), "find: \(find.standardOutput)")
        // Before the bad turn, nothing depends on it.
        let early = try Executables.coginspect([path, "-c", "goto 5", "-c", "why weather.isNiceHere"])
        #expect(!early.standardOutput.contains(warning))
        // The graph after it cannot be built, and says so rather than answer.
        let get = try Executables.coginspect([path, "-c", "goto 7", "-c", "get weather.isNiceHere"])
        #expect(get.status == 1)
        #expect(get.standardError.contains("the trace is malformed: line"))
        let info = try Executables.coginspect([path, "--json", "-c", "info"])
        #expect(info.standardOutput.contains(#""undecodable turns":[{"turn":6,"afterTurn":false}]"#))
    }

    @Test(arguments: undecodableTurn6)
    func noAnswerThatReadsTheBrokenTurnIsSilent(_ name: String) throws {
        let path = Self.directory.appendingPathComponent("\(name).cogtrace").path
        for json in [false, true] {
            for command in Self.commandsReadingTurn6 {
                let outcome = try Executables.coginspect(
                    [path] + (json ? ["--json"] : []) + ["-c", "goto 7", "-c", command])
                let said = outcome.standardOutput + outcome.standardError
                let warned = said.contains("turn 6 could not be decoded") || said.contains("malformed")
                #expect(outcome.status != 0 || warned, "\(name) \(json ? "--json " : "")\(command) answered silently")
            }
        }
    }

    @Test func answersPastMissingTurnsSaySo() throws {
        let path = Self.directory.appendingPathComponent("missing-turns.cogtrace").path
        let opened = try Executables.coginspect([path, "-c", "info"])
        #expect(opened.standardError.contains("turns 9–10 are missing from the file"), "\(opened.standardError)")
        for command in Self.commandsReadingTurn6 + ["where", "last", "turn 12"] {
            let outcome = try Executables.coginspect([path, "-c", "goto 12", "-c", command])
            #expect(
                outcome.status != 0 || outcome.standardOutput.contains("turns 9–10 are missing from the file"),
                "\(command) answered past the gap silently")
        }
        let before = try Executables.coginspect([path, "-c", "goto 5", "-c", "get weather.currentZip"])
        #expect(!before.standardOutput.contains("missing"), "an answer before the gap does not span it")
    }

    /// A keyframe put where its `before` does not fit the turn lines around it is not used:
    /// the load names its line, and answers past it are the answers of the intact tour.
    @Test func aMisplacedKeyframeIsNotBelievedAndIsNamed() throws {
        let path = Self.directory.appendingPathComponent("misplaced-keyframe.cogtrace").path
        let tour = Executables.packageRoot.appendingPathComponent("Recordings/tour.cogtrace").path
        let commands = [
            "get weather.isNiceHere", "state", "deps weather.isNiceHere", "users weather.currentZip", "leases",
            "async weather.forecast[10001]", "export dot", "export mermaid", "export json",
        ]
        for command in commands {
            let mutant = try Executables.coginspect([path, "-c", "goto 20", "-c", command])
            let intact = try Executables.coginspect([tour, "-c", "goto 20", "-c", command])
            #expect(mutant.status == intact.status, "\(command)")
            let warning =
                "warning: line 18: the keyframe at line 18 stands before turn 10, but the turn line below it "
                + "(line 19) is turn 1; no answer starts from it"
            #expect(mutant.standardError.contains(warning), "\(command): \(mutant.standardError)")
            let answer = mutant.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("warning: ") }
            #expect(answer == intact.standardOutput.split(separator: "\n"), "\(command) differs from the intact tour")
        }
    }

    /// Files get the terminal's escaping too: a page's title bar, a DOT label, a database cell
    /// read back with `sqlite3` must not carry a recorded control sequence.
    @Test(arguments: ["html", "dot", "mermaid", "json", "chrome", "sqlite"])
    func exportedFilesCarryNoRecordedControlSequence(_ format: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.\(format)")
        let path = Self.directory.appendingPathComponent("control-markers.cogtrace").path
        let outcome = try Executables.coginspect([path, "-c", "export \(format) --to \(output.path)"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let bytes = try [UInt8](Data(contentsOf: output))
        // The markers' sequences: OSC (ESC ]), CSI (ESC [), BEL after a title, C1 CSI (0xC2 0x9B).
        let sequences: [[UInt8]] = [
            [0x1B, 0x5D], [0x1B, 0x5B], [0x3B, 0x6F, 0x77, 0x6E, 0x65, 0x64, 0x07], [0xC2, 0x9B],
        ]
        for sequence in sequences {
            let found = bytes.indices.dropLast(sequence.count - 1).contains {
                bytes[$0..<($0 + sequence.count)].elementsEqual(sequence)
            }
            #expect(!found, "export \(format) wrote the raw bytes \(sequence)")
        }
    }

    @Test func anUndeclaredStateIsNamedAsSuch() throws {
        let path = Self.directory.appendingPathComponent("undeclared-state.cogtrace").path
        for command in ["history weather.isNiceHere", "why weather.isNiceHere @22", "turn 22"] {
            let outcome = try Executables.coginspect([path, "-c", command])
            #expect(
                outcome.standardOutput.contains("#15 named by the trace but never declared"),
                "\(command): \(outcome.standardOutput)")
        }
    }

    @Test func numbersPastWhatArithmeticHoldsAreRefusedWithTheirLine() throws {
        let version = try Executables.coginspect([
            Self.directory.appendingPathComponent("version-overflow.cogtrace").path, "-c", "get x",
        ])
        #expect(version.status == 65)
        #expect(version.standardError.contains("line 3: keyframe: state 1's version 9223372036854775807 is outside"))
        let clock = try Executables.coginspect([
            Self.directory.appendingPathComponent("clock-overflow.cogtrace").path, "-c", "export chrome",
        ])
        #expect(clock.exited && clock.status == 1)
        #expect(clock.standardError.contains("past the 2^53 µs it can hold"))
        let header = try Executables.coginspect([
            Self.directory.appendingPathComponent("truncated-header.cogtrace").path, "-c", "info",
        ])
        #expect(header.status == 65)
        #expect(header.standardError.contains("a truncated header"))
    }

    @Test func aDOTExportOfControlMarkersStillRenders() throws {
        guard let dot = ExportTests.dot else { return }
        let path = Self.directory.appendingPathComponent("control-markers.cogtrace").path
        let outcome = try Executables.coginspect([path, "-c", "export dot --turn 6"])
        #expect(outcome.status == 0)
        let svg = try Executables.run(dot, ["-Tsvg"], input: outcome.standardOutput)
        #expect(svg.status == 0, "\(svg.standardError)")
    }

    /// C0 controls other than tab and newline, DEL, and the C1 controls.
    static func isRawControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n") || scalar.value == 0x7F
            || (0x80...0x9F).contains(scalar.value)
    }
}
