import Foundation
import Testing

/// `coginspect --follow` beside a running `weather run --trace`: the real executables, the
/// prompt under a pseudo-terminal and batch runs under pipes.
@Suite("Following a running app", .serialized)
struct LiveFollowTests {
    /// A directory of its own for the trace (and the inspector's home), made only by the tests
    /// that write there (`makeDirectory`), which remove it again.
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "follow-e2e-\(UUID().uuidString)", isDirectory: true)

    private func makeDirectory() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private var tracePath: String { directory.appendingPathComponent("live.cogtrace").path }

    /// A running app, and the timer that interrupts it if the test never does.
    private struct App {
        let process: Process
        let watchdog: DispatchWorkItem
    }

    /// Starts the app streaming its trace, moving between `visits`; it runs until interrupted
    /// (and is interrupted after `limit` seconds whatever happens, so no test can hang on it).
    private func startApp(visits: String, limit: Double = 40) throws -> App {
        try makeDirectory()
        let app = Process()
        app.executableURL = Executables.productsDirectory.appendingPathComponent("weather")
        app.arguments = ["run", "--trace", tracePath, "--interval", "0.4", "--visit", visits]
        app.standardOutput = FileHandle.nullDevice
        app.standardError = FileHandle.nullDevice
        app.standardInput = FileHandle.nullDevice
        try app.run()
        // Interrupt (not signal a pid), so a process that ended is never mistaken for another.
        let watchdog = DispatchWorkItem { if app.isRunning { app.interrupt() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: watchdog)
        return App(process: app, watchdog: watchdog)
    }

    private func stop(_ app: App) {
        app.watchdog.cancel()
        if app.process.isRunning { app.process.interrupt() }
        app.process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A batch `coginspect` following the trace with `arguments`, and what it has said so far.
    private final class Follower {
        let process: Process
        private let output = Pipe()
        private let errors = Pipe()
        private var printed = Data()
        private var reported = Data()

        init(_ process: Process) {
            self.process = process
            process.standardOutput = output
            process.standardError = errors
            process.standardInput = FileHandle.nullDevice
        }

        /// Waits until standard output shows `text`, as the follower prints it; false when the
        /// follower ended without printing it.
        @discardableResult
        func waitForOutput(_ text: String) -> Bool {
            Self.read(output, into: &printed, until: text)
        }

        /// Waits until standard error shows `text`; false when the follower ended without it.
        @discardableResult
        func waitForErrors(_ text: String) -> Bool {
            Self.read(errors, into: &reported, until: text)
        }

        /// Waits for the follower to end; all its standard output and standard error.
        func finish() -> (output: String, errors: String) {
            reported.append(errors.fileHandleForReading.readDataToEndOfFile())
            printed.append(output.fileHandleForReading.readDataToEndOfFile())
            process.waitUntilExit()
            return (String(decoding: printed, as: UTF8.self), String(decoding: reported, as: UTF8.self))
        }

        private static func read(_ pipe: Pipe, into buffer: inout Data, until text: String) -> Bool {
            while !String(decoding: buffer, as: UTF8.self).contains(text) {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { return false }
                buffer.append(chunk)
            }
            return true
        }
    }

    /// Waits, polling the file, until the app has written `count` turns; a loaded machine may
    /// take long, so only a generous bound ends the wait.
    private func waitForWrittenTurns(_ count: Int) {
        let deadline = ContinuousClock.now + .seconds(60)
        while writtenTurns().count < count, ContinuousClock.now < deadline { usleep(20_000) }
    }

    private func startFollower(_ arguments: [String]) throws -> Follower {
        let process = Process()
        process.executableURL = Executables.productsDirectory.appendingPathComponent("coginspect")
        process.arguments = ["--follow", tracePath] + arguments
        let follower = Follower(process)
        try process.run()
        return follower
    }

    /// The turn numbers the trace file holds now.
    private func writtenTurns() -> [Int] {
        guard let text = try? String(contentsOfFile: tracePath, encoding: .utf8) else { return [] }
        let prefix = #"{"type":"turn","seq":"#
        return text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix(prefix) else { return nil }
            return Int(line.dropFirst(prefix.count).prefix { $0.isNumber })
        }
    }

    @Test(
        .disabled(if: InteractivePromptTests.isUnderThreadSanitizer, "Ctrl-C is deferred under ThreadSanitizer"),
        .enabled(if: TerminalSession.isAvailable, "needs tmux, which is not installed"))
    func theWatchPrintsEachArrivingTurnAndThePromptStaysUsable() throws {
        let app = try startApp(visits: "94105,98101,10001")
        defer { stop(app) }
        let terminal = TerminalSession("follow")
        defer { terminal.stop() }
        let binary = Executables.productsDirectory.appendingPathComponent("coginspect").path
        terminal.start("env HOME='\(directory.path)' TERM=xterm '\(binary)' --follow '\(tracePath)'")
        terminal.waitFor("the prompt") { $0.contains("following,") && TerminalSession.lastLine($0).hasPrefix("turn ") }
        terminal.send("watch weather.isNiceHere", "Enter")
        terminal.waitFor("the watch") { $0.contains("watching: weather.isNiceHere") }

        // Watch lines arrive as the app writes its turns. How soon is cog-bench's to measure
        // (`--sections follow`), not a test's on a shared machine.
        let watched = terminal.waitFor("three watch lines", seconds: 60) { screen in
            screen.split(separator: "\n").filter { $0.hasPrefix("turn ") && $0.contains("weather.isNiceHere = ") }
                .count >= 3
        }
        #expect(watched.contains("weather.isNiceHere = "))

        // Typing is not interrupted by arriving turns: the line survives prompt redraws.
        let promptBefore = TerminalSession.lastLine(terminal.screen())
        terminal.send("wher")
        let typed = terminal.waitFor("turns arriving while typing") { screen in
            let last = TerminalSession.lastLine(screen)
            return last.hasSuffix("> wher") && !promptBefore.hasPrefix(last.prefix { $0 != ">" })
        }
        #expect(TerminalSession.lastLine(typed).hasSuffix("> wher"))
        terminal.send("e", "Enter")
        terminal.waitFor("the command's answer") { $0.contains(" of 1..") }

        // Ctrl-C at the prompt clears the line and keeps the inspector alive.
        terminal.send("nonsense")
        terminal.waitFor("the typed line") { TerminalSession.lastLine($0).hasSuffix("> nonsense") }
        terminal.send("C-c")
        terminal.waitFor("a fresh prompt") { !TerminalSession.lastLine($0).contains("nonsense") }
        terminal.send("unwatch all", "Enter")
        terminal.waitFor("the prompt still alive") { $0.contains("removed 1 watch") }

        terminal.send("quit", "Enter")
        let deadline = ContinuousClock.now + .seconds(60)
        while terminal.isRunning, ContinuousClock.now < deadline { usleep(20_000) }
        #expect(!terminal.isRunning, "quit leaves")
    }

    @Test func aBatchFollowExitsZeroWhenTheAppReachesTheZip() throws {
        let app = try startApp(visits: "94105,98101")
        defer { stop(app) }
        let outcome = try Executables.coginspect([
            "--follow", tracePath, "-c", "watch weather.currentZip", "--until", #"weather.currentZip == "98101""#,
        ])
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        #expect(outcome.standardOutput.contains("weather.currentZip = 98101 (was 94105)"))
        #expect(outcome.standardError.contains("the condition holds at turn"))
    }

    @Test func theTrailerBeforeTheConditionExitsThree() throws {
        let outcome = try Executables.coginspect([
            "--follow", "Recordings/tour.cogtrace", "--until", "weather.currentZip == \"00000\"", "-c", "info",
        ])
        #expect(outcome.status == 3)
        #expect(outcome.standardError.contains("the --until condition never held"))
    }

    @Test func followAndUntilAreCheckedOnTheCommandLine() throws {
        let twoTraces = try Executables.coginspect(["--follow", "a.cogtrace", "b.cogtrace", "-c", "info"])
        #expect(twoTraces.status == 64)
        #expect(twoTraces.standardError.contains("--follow needs exactly one trace file"))
        let untilAlone = try Executables.coginspect([
            "Recordings/tour.cogtrace", "--until", "weather.isNiceHere", "-c", "info",
        ])
        #expect(untilAlone.status == 64)
        #expect(untilAlone.standardError.contains("--until works with --follow only"))
        let badExpression = try Executables.coginspect([
            "--follow", "Recordings/tour.cogtrace", "--until", "weather.isNiceHere ==", "-c", "info",
        ])
        #expect(badExpression.status == 64)
        let directory = try Executables.coginspect(["--follow", "Recordings", "-c", "info"])
        #expect(directory.status == 66)
        #expect(directory.standardError.contains("it is a directory"))
        let finished = try Executables.coginspect(["Recordings/tour.cogtrace", "-c", "follow"])
        #expect(finished.status == 1)
        #expect(finished.standardError.contains("is finished (it has its trailer); nothing more will arrive"))
    }

    @Test func aMalformedArrivingLineStopsFollowingWithAnError() throws {
        let tour = try String(
            contentsOf: Executables.packageRoot.appendingPathComponent("Recordings/tour.cogtrace"), encoding: .utf8)
        let unfinished = tour.split(separator: "\n").dropLast().joined(separator: "\n") + "\n"
        try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try (unfinished + "{\"type\":\"turn\",\"seq\":1,\"name\":\"again\"}\n").write(
            toFile: tracePath, atomically: false, encoding: .utf8)
        // The bad line is there at the start, so the open itself refuses it.
        let outcome = try Executables.coginspect(["--follow", tracePath, "-c", "info"])
        #expect(outcome.status == 65)
        #expect(outcome.standardError.contains("turn 1 follows turn 25"))
    }

    @Test func aTruncatedFileIsReportedNotCrashedOn() throws {
        let tour = try String(
            contentsOf: Executables.packageRoot.appendingPathComponent("Recordings/tour.cogtrace"), encoding: .utf8)
        let unfinished = tour.split(separator: "\n").dropLast().joined(separator: "\n") + "\n"
        try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try unfinished.write(toFile: tracePath, atomically: false, encoding: .utf8)
        let inspector = try startFollower(["-c", "watch weather.isNiceHere"])
        // The watch's first answer says the file was read and is being followed.
        #expect(inspector.waitForOutput("watching: weather.isNiceHere"))
        #expect(truncate(tracePath, 100) == 0)
        let message = inspector.finish().errors
        #expect(inspector.process.terminationStatus == 1)
        #expect(message.contains("the followed file was truncated; following stopped"), "stderr: \(message)")
    }

    @Test func sigtermEndsTheAppWithItsTrailer() throws {
        let app = try startApp(visits: "94105,98101")
        defer { stop(app) }
        waitForWrittenTurns(3)
        kill(app.process.processIdentifier, SIGTERM)
        app.process.waitUntilExit()
        #expect(app.process.terminationReason == .exit && app.process.terminationStatus == 0)
        let lines = try String(contentsOfFile: tracePath, encoding: .utf8).split(separator: "\n")
        #expect(lines.last?.hasPrefix(#"{"type":"trailer","ok":true"#) == true, "last line: \(lines.last ?? "")")
    }

    @Test func aWriterKilledMidTraceIsReportedWithinSeconds() throws {
        let app = try startApp(visits: "94105,98101")
        defer { stop(app) }
        waitForWrittenTurns(3)
        let inspector = try startFollower(["-c", "watch weather.currentZip"])
        #expect(inspector.waitForOutput("watching: weather.currentZip"))
        kill(app.process.processIdentifier, SIGKILL)
        let message = inspector.finish().errors
        #expect(inspector.process.terminationStatus == 1)
        let pid = app.process.processIdentifier
        #expect(
            message.contains("the writing process (pid \(pid)) ended without finishing its trace"), "stderr: \(message)"
        )
    }

    @Test func followingAFinishedTraceWithAWatchPrintsItAndSucceeds() throws {
        let outcome = try Executables.coginspect([
            "--follow", "Recordings/tour.cogtrace", "-c", "watch weather.currentZip",
        ])
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        #expect(outcome.standardOutput.contains("now:      98101"))
        #expect(outcome.standardError.contains("the recorder finished (the trailer arrived)"))
    }

    @Test func reopenFollowsTheRecordingOfARestartedApp() throws {
        let first = try startApp(visits: "94105,98101")
        waitForWrittenTurns(3)
        let inspector = try startFollower(["--reopen", "-c", "watch weather.currentZip"])
        #expect(inspector.waitForOutput("watching: weather.currentZip"))
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        first.watchdog.cancel()
        // The follower has seen the writer end before the second run starts writing.
        #expect(inspector.waitForErrors("ended without finishing its trace"))
        let second = try startApp(visits: "10001,98101")
        defer { stop(second) }
        waitForWrittenTurns(6)
        second.process.interrupt()  // the second run finishes its trace: the follower's end
        let (printed, message) = inspector.finish()
        #expect(inspector.process.terminationStatus == 0, "stderr: \(message)")
        #expect(message.contains("ended without finishing its trace"), "stderr: \(message)")
        #expect(message.contains("reopened '\(tracePath)': a new recording"), "stderr: \(message)")
        #expect(message.contains("the recorder finished (the trailer arrived)"), "stderr: \(message)")
        #expect(printed.components(separatedBy: "watching: weather.currentZip").count == 3, "the watch ran again")
    }
}
