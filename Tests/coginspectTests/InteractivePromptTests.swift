import Foundation
import Testing

/// Drives the real `coginspect` at an interactive prompt under a pseudo-terminal (tmux), as a
/// person would: completion with Tab, history with the up arrow, Ctrl-C clearing the line.
@Suite(
    "Interactive prompt", .serialized, .enabled(if: TerminalSession.isAvailable, "needs tmux, which is not installed"))
struct InteractivePromptTests {
    private let terminal = TerminalSession("prompt")

    /// Starts `coginspect` on the tour in a tmux session, with a fresh home directory of its own
    /// (for the history file); returns that directory.
    private func startInspector(home prefix: String, columns: Int = 160) throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(getpid())")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let binary = Executables.productsDirectory.appendingPathComponent("coginspect").path
        terminal.start("env HOME='\(home.path)' TERM=xterm '\(binary)' Recordings/tour.cogtrace", columns: columns)
        return home
    }

    private func stopInspector(home: URL) {
        terminal.stop()
        try? FileManager.default.removeItem(at: home)
    }

    @discardableResult
    private func waitFor(_ what: String, _ condition: (String) -> Bool) throws -> String {
        terminal.waitFor(what, condition)
    }

    private func lastLine(_ text: String) -> String { TerminalSession.lastLine(text) }

    /// Under ThreadSanitizer a signal reaches its handler only when the thread next enters an
    /// intercepted call, and readline sits blocked in `read`, so Ctrl-C shows nothing until the
    /// next key: a property of the sanitizer, not of the prompt.
    @Test(.disabled(if: Self.isUnderThreadSanitizer, "Ctrl-C is deferred under ThreadSanitizer"))
    func completionHistoryAndCtrlCWork() throws {
        let home = try startInspector(home: "coginspect-home")
        defer { stopInspector(home: home) }

        try waitFor("the prompt") { $0.contains("turn 25/25>") }
        terminal.send("hist")
        try waitFor("the typed prefix") { lastLine($0).hasSuffix("> hist") }
        terminal.send("Tab")
        try waitFor("the command completed") { lastLine($0).hasSuffix("turn 25/25> history") }
        terminal.send("weather.isNiceH", "Tab")
        try waitFor("the state completed") { lastLine($0).hasSuffix("history weather.isNiceHere") }
        terminal.send("Enter")
        try waitFor("the history output") { $0.contains("turn N+ means between turn N") }

        terminal.send("Up")
        try waitFor("the previous command recalled") {
            lastLine($0).hasSuffix("turn 25/25> history weather.isNiceHere")
        }

        terminal.send("C-c")
        try waitFor("a fresh prompt after Ctrl-C") { lastLine($0) == "turn 25/25>" || lastLine($0) == "turn 25/25> " }
        terminal.send("goto 3", "Enter")
        try waitFor("the prompt still alive") { $0.contains("turn 3 of 1..25") && lastLine($0).hasPrefix("turn 3/25>") }

        terminal.send("C-d")
        let historyFile = home.appendingPathComponent(".coginspect_history")
        let deadline = ContinuousClock.now + .seconds(60)
        while !FileManager.default.fileExists(atPath: historyFile.path), ContinuousClock.now < deadline {
            usleep(20_000)
        }
        let history = try String(contentsOf: historyFile, encoding: .utf8)
        #expect(history.contains("history weather.isNiceHere"))
        #expect(history.contains("goto 3"))
        let permissions = try FileManager.default.attributesOfItem(atPath: historyFile.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
    }

    /// At a narrow terminal, `help` lays itself out for the pane's width (the terminal never has to
    /// wrap a line), and `clear` empties the screen back to the prompt.
    @Test func helpFitsTheTerminalAndClearEmptiesIt() throws {
        let home = try startInspector(home: "coginspect-clear", columns: 72)
        defer { stopInspector(home: home) }
        try waitFor("the prompt") { $0.contains("turn 25/25>") }
        terminal.send("help why", "Enter")
        try waitFor("the help") { $0.contains("example:") }
        let lines = terminal.joinedScreen().split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("description:") })
        #expect(lines.allSatisfy { $0.count <= 72 }, "a line wider than the pane:\n\(lines.joined(separator: "\n"))")
        terminal.send("clear", "Enter")
        // Cleared and the prompt drawn again: a blank screen before the redraw is not the answer.
        let cleared = try waitFor("an empty screen with its prompt") {
            !$0.contains("example:") && lastLine($0).hasPrefix("turn 25/25>")
        }
        #expect(cleared.split(separator: "\n").count == 1, "only the prompt is left:\n\(cleared)")
        #expect(lastLine(cleared).hasPrefix("turn 25/25>"))
    }

    /// Quitting the pager with `q` before the end of a long output ends that output only: the
    /// session is still there (the write that finds the pager gone fails, SIGPIPE is ignored).
    @Test func quittingThePagerEarlyReturnsToThePrompt() throws {
        let home = try startInspector(home: "coginspect-pager")
        defer { stopInspector(home: home) }
        try waitFor("the prompt") { $0.contains("turn 25/25>") }
        // 50,000 lines: far more than a pipe holds, so the pager quits while lines still come.
        terminal.send(
            "sql WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50000) SELECT i FROM n",
            "Enter")
        try waitFor("the pager") { $0.contains("\n1 ") || $0.contains("\n1\n") }
        terminal.send("q")
        try waitFor("the prompt after the pager") { lastLine($0).hasPrefix("turn 25/25>") }
        terminal.send("where", "Enter")
        try waitFor("the session still answering") { $0.contains("turn 25 of 1..25") }
        terminal.send("quit", "Enter")
    }

    /// Ctrl-C at the prompt during a long `bisect` and a long `export html` on a 60,000-turn
    /// synthetic trace: each stops, the prompt comes back with the cursor where it was, and the
    /// export leaves no file (how fast is `Scripts/interrupt-latency`'s figure, not this test's).
    @Test(.disabled(if: Self.isUnderThreadSanitizer, "Ctrl-C is deferred under ThreadSanitizer"))
    func ctrlCStopsALongCommandAndKeepsTheSession() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("prompt-ctrl-c-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("big.cogtrace")
        try SyntheticTraces.write(turns: 60_000, to: trace)
        let binary = Executables.productsDirectory.appendingPathComponent("coginspect").path
        terminal.start(
            "env HOME='\(directory.path)' TERM=xterm '\(binary)' '\(trace.path)'", columns: 160)
        defer { terminal.stop() }
        try waitFor("the prompt") { lastLine($0).hasPrefix("turn 60000/60000>") }
        terminal.send("goto 100", "Enter")
        try waitFor("the cursor at 100") { lastLine($0).hasPrefix("turn 100/60000>") }
        let never = (0..<12).map { "weather.forecast[\(10001 + $0 * 7)].temperatureF > 999" }.joined(separator: " or ")
        let page = directory.appendingPathComponent("viewer.html")
        for (index, command) in ["bisect \(never)", "export html --to \(page.path)"].enumerated() {
            terminal.send(command, "Enter")
            // Under way: its progress line (shown once a task has run half a second) is up.
            try waitFor("the progress line of \(command.prefix(12))") { screen in
                let line = lastLine(screen)
                return !line.hasPrefix("turn 100/60000>") && (line.hasSuffix("%") || line.hasSuffix("…"))
            }
            terminal.send("C-c")
            // Each stop says so once more: the screen holds one "interrupted" per command so far.
            try waitFor("the prompt after Ctrl-C in \(command.prefix(12))") {
                lastLine($0).hasPrefix("turn 100/60000>") && $0.components(separatedBy: "interrupted").count > index + 1
            }
        }
        #expect(!FileManager.default.fileExists(atPath: page.path), "an interrupted export leaves no file")
        terminal.send("where", "Enter")
        try waitFor("the session still answering") { $0.contains("turn 100 of 1..60000") }
        terminal.send("quit", "Enter")
    }

    /// An export printed at the prompt is one long line (Chrome's JSON): it is as tall as the
    /// rows it wraps into, so it goes through the pager like any tall output.
    @Test func aOneLineExportTallerThanTheScreenIsPaged() throws {
        let home = try startInspector(home: "coginspect-pager-line")
        defer { stopInspector(home: home) }
        try waitFor("the prompt") { $0.contains("turn 25/25>") }
        terminal.send("export chrome", "Enter")
        let paged = try waitFor("the pager") { !lastLine($0).hasPrefix("turn 25/25>") && $0.contains("traceEvents") }
        #expect(!lastLine(paged).hasPrefix("turn 25/25>"), "the pager holds the screen")
        terminal.send("q")
        try waitFor("the prompt after the pager") { lastLine($0).hasPrefix("turn 25/25>") }
        terminal.send("quit", "Enter")
    }

    /// `play` prints each turn when it is reached, not all at the end, and Ctrl-C stops it at
    /// once, back at the prompt with the cursor on the last turn printed.
    @Test(.disabled(if: Self.isUnderThreadSanitizer, "Ctrl-C is deferred under ThreadSanitizer"))
    func playIsPacedByThePromptAndCtrlCStopsIt() throws {
        let home = try startInspector(home: "coginspect-play")
        defer { stopInspector(home: home) }
        try waitFor("the prompt") { $0.contains("turn 25/25>") }

        // Behaviour rather than wall-clock bounds, so a loaded machine cannot fail it: with two
        // seconds between turns, the first shows while the second is not yet printed, and Ctrl-C
        // lands back at the prompt before the next turn was due.
        terminal.send("play 1..4 --delay 2000", "Enter")
        let first = try waitFor("the first turn") { $0.contains("name:   Weather.publishRefreshInterval") }
        #expect(!first.contains("name:   Weather.selectLocation"), "the second turn is not due yet:\n\(first)")
        try waitFor("the second turn") { $0.contains("name:   Weather.selectLocation") }

        terminal.send("C-c")
        let stopped = try waitFor("the play to stop") { lastLine($0).hasPrefix("turn 2/25>") }
        #expect(stopped.contains("play stopped at turn 2"))
        #expect(!stopped.contains("name:   weather.forecast[10001] pending"), "no turn prints after Ctrl-C")
        terminal.send("quit", "Enter")
    }

    /// Ctrl-C stops a query that would never end (an unbounded recursive CTE) through SQLite's
    /// progress handler, and a bisect or any other command the same way, back at the prompt with
    /// the cursor where it was.
    @Test(.disabled(if: Self.isUnderThreadSanitizer, "Ctrl-C is deferred under ThreadSanitizer"))
    func ctrlCStopsAnEndlessQueryAndKeepsTheCursor() throws {
        let home = try startInspector(home: "coginspect-sql")
        defer { stopInspector(home: home) }
        try waitFor("the prompt") { $0.contains("turn 25/25>") }
        terminal.send("goto 5", "Enter")
        try waitFor("the cursor at turn 5") { lastLine($0).hasPrefix("turn 5/25>") }
        let endless = "sql WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
        terminal.send(endless, "Enter")
        try waitFor("the query running") { lastLine($0) == "running the query…" }
        terminal.send("C-c")
        let stopped = try waitFor("the prompt back") {
            $0.contains("interrupted; the cursor is where it was") && lastLine($0).hasPrefix("turn 5/25>")
        }
        #expect(stopped.contains("error: interrupted"))
        terminal.send("where", "Enter")
        try waitFor("the prompt still alive") { $0.contains("turn 5 of 1..25") }
        terminal.send("quit", "Enter")
    }

    /// Whether this process (and so the `coginspect` built beside it) runs with ThreadSanitizer.
    nonisolated static let isUnderThreadSanitizer = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil
}
