import Foundation
import Testing

/// `play` at the prompt on a screen shorter than its turns: each turn is cut to the screen with a
/// note, and playback never stops in the pager waiting for a key. Driven under tmux.
@Suite("play at the prompt", .serialized, .enabled(if: TerminalSession.isAvailable, "needs tmux"))
struct PlayPromptTests {
    private let terminal = TerminalSession("play")

    @Test func playOnAShortScreenCutsEachTurnAndReturnsToThePrompt() throws {
        let home = try terminal.startInspector("Recordings/tour.cogtrace", columns: 100, rows: 12)
        defer { terminal.stop(removing: home) }
        terminal.waitFor("the prompt") { TerminalSession.lastLine($0).hasSuffix("turn 25/25>") }
        // Turn 6 of the tour is 26 lines: taller than the 12-row screen.
        terminal.send("play 4..8 --delay 20", "Enter")
        let after = terminal.waitFor("the prompt after playback, with no pager in between") { screen in
            TerminalSession.lastLine(screen).hasSuffix("turn 8/25>")
        }
        #expect(!after.contains("(END)") && !after.contains(":\n"), "no pager prompt:\n\(after)")
        terminal.send("clear", "Enter")
        terminal.waitFor("the cleared prompt") { TerminalSession.lastLine($0).hasSuffix("turn 8/25>") }
        terminal.send("play 6..6", "Enter")
        let cut = terminal.waitFor("turn 6 cut to the screen") { $0.contains("more lines; 'turn 6' shows them all") }
        #expect(cut.split(separator: "\n").count <= 12, "the cut turn fits the screen:\n\(cut)")
    }
}
