import Foundation
import Testing

/// Ctrl-C (SIGINT) during a long command in batch: the command stops, the run exits 130, and an
/// export it cut short leaves no file. On a synthetic trace long enough that each command runs
/// for seconds, in a terminal (tmux), so Ctrl-C is pressed once the command shows it is under
/// way: its progress line, or its first turn for `play`. The test asserts what happened, not how
/// fast (docs/inspector.md gives the figures).
@Suite(
    "Interrupts in batch", .serialized, .enabled(if: TerminalSession.isAvailable, "needs tmux, which is not installed"))
struct InterruptTests {
    private let terminal = TerminalSession("interrupts")

    /// Runs `coginspect -c command` in batch on a 60,000-turn trace in a terminal, presses Ctrl-C
    /// once `underWay` holds for the screen, and returns the exit status and what the run printed.
    private func interrupted(_ command: String, underWay: (String) -> Bool) throws -> (Int32?, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("interrupts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("long.cogtrace")
        try SyntheticTraces.write(turns: 60_000, to: trace)
        let binary = Executables.productsDirectory.appendingPathComponent("coginspect").path
        let quoted = command.replacingOccurrences(of: "'", with: "'\\''")
        terminal.start(
            "env HOME='\(folder.path)' TERM=xterm '\(binary)' '\(trace.path)' -c '\(quoted)'; "
                + "echo \"exit status $?\"; sleep 600")
        defer { terminal.stop() }
        terminal.waitFor("the command under way", seconds: 60, underWay)
        terminal.send("C-c")
        let screen = terminal.waitFor("the run to end", seconds: 60) { $0.contains("exit status ") }
        let status = screen.components(separatedBy: "exit status ").last
            .flatMap { Int32($0.prefix { $0.isNumber }) }
        return (status, screen)
    }

    /// A progress line ("building the viewer 12%") is on the screen's last line.
    private static func showsProgress(_ screen: String) -> Bool {
        let line = TerminalSession.lastLine(screen)
        return line.hasSuffix("%") || line.hasSuffix("…")
    }

    @Test func anInterruptedExportLeavesNoFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("interrupted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("viewer.html")
        let (status, screen) = try interrupted("export html --to \(page.path)") {
            $0.contains("building the viewer") && Self.showsProgress($0)
        }
        #expect(status == 130, "\(screen)")
        #expect(screen.contains("interrupted"), "\(screen)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "an export was left behind")
    }

    /// `play` with a pause between turns, and a `bisect` over an expression that never holds and
    /// that every turn makes a candidate for (it walks the whole trace).
    @Test(arguments: [
        "play 1..60000 --delay 1000",
        "bisect " + (0..<12).map { "weather.forecast[\(10001 + $0 * 7)].temperatureF > 999" }.joined(separator: " or ")
            + " or weather.currentZip == \"none\"",
    ])
    func aLongCommandStopsAtCtrlC(_ command: String) throws {
        let (status, screen) = try interrupted(command) { screen in
            command.hasPrefix("play") ? screen.contains("name:") : Self.showsProgress(screen)
        }
        #expect(status == 130, "\(command): \(screen)")
        #expect(screen.contains("coginspect: interrupted at turn"), "\(command): \(screen)")
    }
}
