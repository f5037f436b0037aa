import Foundation
import Testing

/// `history` of a busy state at the prompt: the pager shows its first screen while the rest is
/// found, `G` reaches the last row, and quitting the pager returns to the prompt with the work
/// stopped. Driven under tmux as a person at a terminal would.
@Suite(
    "history streams into the pager", .serialized,
    .enabled(if: TerminalSession.isAvailable, "needs tmux"))
struct StreamedHistoryPromptTests {
    private let terminal = TerminalSession("stream")

    /// Writes a 30,000-turn synthetic trace in a new folder, opens it at the prompt and waits
    /// for the prompt; returns the folder (its HOME too), for the caller to remove.
    private func startOnABusyTrace() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let trace = folder.appendingPathComponent("busy.cogtrace")
        try SyntheticTraces.write(turns: 30_000, to: trace)
        let binary = Executables.productsDirectory.appendingPathComponent("coginspect").path
        terminal.start("env HOME='\(folder.path)' TERM=xterm '\(binary)' '\(trace.path)'", columns: 120)
        terminal.waitFor("the prompt") { TerminalSession.lastLine($0).hasSuffix("turn 30000/30000>") }
        return folder
    }

    @Test func theFirstScreenShowsAndTheLastRowIsReachedAndQuitReturnsToThePrompt() throws {
        let folder = try startOnABusyTrace()
        defer {
            terminal.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        terminal.send("history weather.currentZip", "Enter")
        let first = terminal.waitFor("the pager's first screen") { screen in
            screen.contains("turn    value  why") && screen.contains("written in turn 3 (selectLocation(_:))")
        }
        #expect(first.contains("9       10015  written in turn 9"), "batches line up under the header:\n\(first)")
        terminal.send("G")
        let last = terminal.waitFor("the last row", seconds: 30) { $0.contains("(END)") }
        #expect(last.contains("29997   "), "the last write of the 30,000 turns:\n\(last)")
        terminal.send("q")
        terminal.waitFor("the prompt again") { TerminalSession.lastLine($0).hasSuffix("turn 30000/30000>") }
        terminal.send("C-d")
    }

    @Test func findStreamsItsTurnsUnderTheirTitle() throws {
        let folder = try startOnABusyTrace()
        defer {
            terminal.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        terminal.send("find select", "Enter")
        let first = terminal.waitFor("the pager's first screen") { $0.contains("3      selectLocation(_:)") }
        #expect(first.contains("turns\n  turn   name"), "the rows stand under their section's title:\n\(first)")
        terminal.send("G")
        let last = terminal.waitFor("the last row", seconds: 30) { $0.contains("(END)") }
        #expect(last.contains("  30000  selectLocation(_:)"), "the last matching turn:\n\(last)")
        terminal.send("q")
        terminal.waitFor("the prompt again") { TerminalSession.lastLine($0).hasSuffix("turn 30000/30000>") }
        terminal.send("C-d")
    }
}
