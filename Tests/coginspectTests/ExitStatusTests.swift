import Foundation
import Testing

@Suite("Exit statuses and errors")
struct ExitStatusTests {
    @Test func aGoodSessionExitsZero() throws {
        #expect(try Executables.coginspect(["-c", "info"]).status == 0)
    }

    @Test func aFailingCommandExitsOneAndStopsWithSourceAndLine() throws {
        let outcome = try Executables.coginspect(["-c", "where", "-c", "get weather.isNise[10001]", "-c", "info"])
        #expect(outcome.status == 1)
        #expect(
            outcome.standardError
                == "-c:2: error: unknown state 'weather.isNise[10001]'; did you mean 'weather.isNice[10001]'?\n")
        #expect(!outcome.standardOutput.contains("producer:"), "batch stops at the first failure")
    }

    @Test func keepGoingRunsTheRestButStillFails() throws {
        let outcome = try Executables.coginspect(["--keep-going", "-c", "bogus", "-c", "where"])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.hasPrefix("turn 25 of 1..25"))
        #expect(outcome.standardError.contains("-c:1: error: unknown command 'bogus'"))
    }

    @Test func aScriptFromStandardInputNamesItsLines() throws {
        let outcome = try Executables.coginspect(["Recordings/tour.cogtrace", "-f", "-"], input: "where\n\ngoto 999\n")
        #expect(outcome.status == 1)
        #expect(outcome.standardError == "<stdin>:3: error: no turn 999 in this trace; it has turns 1..25\n")
    }

    @Test func aFalseExpectationExitsThreeAndATrueOneZero() throws {
        let failing = try Executables.coginspect([
            "Recordings/tour.cogtrace", "-c", "goto 6",
            "-c", "expect 'weather.isNice[10001] == false'",
        ])
        #expect(failing.status == 3)
        #expect(
            failing.standardError
                == "-c:2: error: expectation failed at turn 6: weather.isNice[10001] == false (weather.isNice[10001] = true)\n"
        )
        let holding = try Executables.coginspect([
            "Recordings/tour.cogtrace", "-c", "expect weather.isNice[10001] == false",
        ])
        #expect(holding.status == 0, "\(holding.standardError)")
    }

    @Test func aUsageMistakeExitsSixtyFour() throws {
        let outcome = try Executables.coginspect(["--frobnicate"])
        #expect(outcome.status == 64)
        #expect(outcome.standardError == "coginspect: unknown option '--frobnicate'; see coginspect --help\n")
    }

    @Test func aMalformedTraceExitsSixtyFive() throws {
        let directory = FileManager.default.temporaryDirectory
        let bad = directory.appendingPathComponent("coginspect-malformed-\(getpid()).cogtrace")
        try Data(#"{"type":"state","id":1}"#.utf8).write(to: bad)
        defer { try? FileManager.default.removeItem(at: bad) }
        let outcome = try Executables.coginspect([bad.path, "-c", "info"])
        #expect(outcome.status == 65)
        #expect(outcome.standardError.contains("line 1, column 1: expected a header record first"))
    }

    /// A query that never ends, and a slow `play` (which takes its own interrupts at the prompt):
    /// SIGINT stops either, and the batch run exits 130 rather than going on.
    @Test(arguments: [
        "sql WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c",
        "play 1..25 --delay 2000",
    ])
    func sigintInBatchStopsTheCommandAndExits130(_ command: String) throws {
        let process = Process()
        process.executableURL = Executables.productsDirectory.appendingPathComponent("coginspect")
        // `where` first: its answer on standard output says the handler is in place and the
        // command next. A SIGINT that lands before the command starts is still pending when it
        // does, and stops it at its first check.
        process.arguments = ["-c", "where", "-c", command, "-c", "where"]
        process.currentDirectoryURL = Executables.packageRoot
        let error = Pipe()
        process.standardError = error
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var printed = Data()
        while !String(decoding: printed, as: UTF8.self).contains("turn 25 of") {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { break }
            printed += more
        }
        #expect(String(decoding: printed, as: UTF8.self).contains("turn 25 of"), "where did not answer first")
        kill(process.processIdentifier, SIGINT)
        // Never hang the suite: a coginspect that ignores SIGINT is killed and the test fails.
        for _ in 0..<200 where process.isRunning { usleep(50_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("coginspect was still running 10 s after SIGINT")
        }
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 130, "\(command): \(message)")
        #expect(message.contains("interrupted"), "\(command)")
    }

    @Test func aFIFOOrADirectoryAsTheTraceIsRefusedWithoutBlocking() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("coginspect-fifo-\(getpid())")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(at: fifo) }
        let fromFIFO = try Executables.coginspect([fifo.path, "-c", "info"])
        #expect(fromFIFO.status == 66)
        #expect(fromFIFO.standardError.contains("it is a FIFO"))
        // A directory is its .cogtrace files, for one database of them all or flaky; nothing else runs.
        let fromDirectory = try Executables.coginspect(["Recordings", "-c", "info"])
        #expect(fromDirectory.status == 1)
        #expect(fromDirectory.standardError.contains("only 'flaky', 'export sqlite FILE' and 'export tables DIR' work"))
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("coginspect-empty-\(getpid())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let fromEmpty = try Executables.coginspect([empty.path, "-c", "info"])
        #expect(fromEmpty.status == 66)
        #expect(fromEmpty.standardError.contains("holds no .cogtrace file"))
    }

    @Test func anExistingOutputIsKeptWithoutForceAndReplacedWholeWithIt() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("coginspect-out-\(getpid())")
        let directory = scratch.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let kept = directory.appendingPathComponent("kept.txt")
        try Data("keep".utf8).write(to: kept)
        let file = scratch.appendingPathComponent("f")
        try Data("old".utf8).write(to: file)
        let link = scratch.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        var refused = 0
        for command in [
            "export sqlite \(directory.path)", "export sqlite \(file.path)", "export dot --to \(file.path)",
            "export dot --to \(link.path)", "export sqlite \(directory.path) --force",
        ] {
            let outcome = try Executables.coginspect(["-c", command])
            #expect(outcome.status == 73, "\(command) should be refused as an output it cannot create")
            refused += 1
        }
        #expect(refused == 5)
        #expect(try String(contentsOf: kept, encoding: .utf8) == "keep", "the directory is untouched")
        #expect(try String(contentsOf: file, encoding: .utf8) == "old", "the file is untouched")
        let forced = try Executables.coginspect(["-c", "export sqlite \(link.path) --force"])
        #expect(forced.status == 73, "a link is refused even with --force: \(forced.standardError)")
        #expect(try String(contentsOf: file, encoding: .utf8) == "old", "its target is untouched")
        #expect(FileManager.default.fileExists(atPath: link.path), "and so is the link")
        let replaced = try Executables.coginspect(["-c", "export dot --to \(file.path) --force"])
        #expect(replaced.status == 0)
        #expect(try String(contentsOf: file, encoding: .utf8).hasPrefix("digraph cog {"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter {
            $0.hasSuffix(".partial")
        }
        #expect(leftovers.isEmpty)
    }

    @Test func aTraceWhoseKeyframesNeedMoreThanTheBudgetIsRefused() throws {
        let refused = try Executables.coginspect(
            ["Recordings/tour.cogtrace", "-c", "info"], environment: ["COGINSPECT_MEMORY_MB": "0"])
        #expect(refused.status == 65)
        #expect(refused.standardError.contains("past the 0 MiB budget; set COGINSPECT_MEMORY_MB to allow more"))
        let wrong = try Executables.coginspect(["-c", "info"], environment: ["COGINSPECT_MEMORY_MB": "lots"])
        #expect(wrong.status == 64)
        let enough = try Executables.coginspect(["-c", "info"], environment: ["COGINSPECT_MEMORY_MB": "64"])
        #expect(enough.status == 0)
    }

    /// One rule for every "compare" answer: 0 the same or found, 1 differs or not found, 3 an
    /// expectation that does not hold; a "no" is an answer, so the script goes on.
    /// An output that cannot be created exits 73 and names the target, never a temporary file.
    @Test func anOutputThatCannotBeCreatedExitsSeventyThreeNamingTheTarget() throws {
        for (command, target) in [
            ("export sqlite /nonexistent-dir/x.db", "'/nonexistent-dir/x.db'"),
            ("export dot --to /nonexistent-dir/x.dot", "'/nonexistent-dir/x.dot'"),
        ] {
            let outcome = try Executables.coginspect(["-c", command])
            #expect(outcome.status == 73, "\(command): \(outcome.standardError)")
            #expect(outcome.standardError.contains(target), "\(outcome.standardError)")
            #expect(!outcome.standardError.contains(".partial"), "\(outcome.standardError)")
        }
    }

    /// Standard output that cannot take the answer (a full device) exits 74 with one line on
    /// standard error, in text and in JSON.
    @Test(.enabled(if: FileManager.default.isWritableFile(atPath: "/dev/full"), "needs /dev/full"))
    func aFullStandardOutputExitsSeventyFour() throws {
        for arguments in [["-c", "turns"], ["--json", "-c", "turns"]] {
            let process = Process()
            process.executableURL = Executables.productsDirectory.appendingPathComponent("coginspect")
            process.arguments = ["Recordings/tour.cogtrace"] + arguments
            process.currentDirectoryURL = Executables.packageRoot
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 74, "\(arguments): \(text)")
            #expect(text == "coginspect: cannot write to standard output: no space left on device\n")
        }
    }

    @Test func noAnswersExitOneAndDoNotStopTheScript() throws {
        let cases: [([String], Int32)] = [
            (["-c", "diff --trace Recordings/tour.cogtrace"], 0),
            (["-c", "diff --trace Recordings/service-outage.cogtrace"], 1),
            (["-c", "bisect weather.isNiceHere == true"], 0),
            (["-c", #"bisect weather.isNiceHere == "never""#], 1),
            (["-c", "expect weather.isNiceHere == false"], 0),
            (["-c", "expect weather.isNiceHere == true"], 3),
        ]
        for (arguments, status) in cases {
            let outcome = try Executables.coginspect(arguments)
            #expect(outcome.status == status, "\(arguments): \(outcome.standardError)")
        }
        let goesOn = try Executables.coginspect(["-c", #"bisect weather.isNiceHere == "never""#, "-c", "where"])
        #expect(goesOn.status == 1)
        #expect(goesOn.standardOutput.contains("turn 25 of 1..25"), "the script went on after the 'no'")
        #expect(goesOn.standardError.isEmpty, "a 'no' is not an error")
    }

    @Test func aMissingTraceExitsSixtySix() throws {
        let outcome = try Executables.coginspect(["no-such.cogtrace", "-c", "info"])
        #expect(outcome.status == 66)
        #expect(outcome.standardError == "coginspect: cannot open 'no-such.cogtrace': no such file or directory\n")
    }

    @Test func valuesWithEscapeSequencesPrintEscaped() throws {
        let directory = FileManager.default.temporaryDirectory
        let hostile = directory.appendingPathComponent("coginspect-hostile-\(getpid()).cogtrace")
        let value = #"{"t":"\u001b]0;pwned\u0007\u001b[2J"}"#
        try Data(
            """
            {"type":"header","format":"cogtrace","version":"1.0","minReader":"1.0","title":"hostile"}
            {"type":"state","id":1,"label":"evil\\u001b[31m","decl":"evil","shape":"manual"}
            {"type":"keyframe","before":1,"states":[],"registrations":[]}
            {"type":"turn","seq":1,"name":"x\\u001b[H","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"created","s":1,"v":\(value)}]}
            {"type":"trailer","ok":true,"turns":1,"evicted":0,"dropped":0,"keyframes":1}

            """.utf8
        ).write(to: hostile)
        defer { try? FileManager.default.removeItem(at: hostile) }
        let outcome = try Executables.coginspect([hostile.path, "-c", "turns", "-c", "state", "-c", "turn 1"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(!outcome.standardOutput.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(outcome.standardOutput.contains(#"\u{1B}]0;pwned\u{7}"#))
    }
}
