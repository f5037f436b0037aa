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

    /// Twenty-five turns on a 20-row screen: every turn is printed, in order, with no pager in
    /// between, and the prompt comes back; a second, slow playback stops at Ctrl-C.
    @Test func twentyFiveTurnsPlayInOrderAndCtrlCStopsAPlayback() throws {
        let home = try terminal.startInspector("Recordings/tour.cogtrace", columns: 100, rows: 20)
        defer { terminal.stop(removing: home) }
        terminal.waitFor("the prompt") { TerminalSession.lastLine($0).hasSuffix("turn 25/25>") }
        terminal.send("play 1..25 --delay 100", "Enter")
        terminal.waitFor("the last turn and the prompt after it", seconds: 30) { screen in
            screen.contains("turn:   25") && TerminalSession.lastLine(screen).hasSuffix("turn 25/25>")
        }
        let played = Self.turnsPlayed(in: terminal.scrollback(), after: "play 1..25 --delay 100")
        #expect(played == Array(1...25))
        #expect(!terminal.scrollback().contains("(END)"), "no pager prompt")

        terminal.send("play 1..25 --delay 3000", "Enter")
        terminal.waitFor("the second turn of the slow playback", seconds: 30) { _ in
            Self.turnsPlayed(in: terminal.scrollback(), after: "play 1..25 --delay 3000").count >= 2
        }
        terminal.send("C-c")
        let stopped = terminal.waitFor("the playback stopped") { $0.contains("play stopped at turn") }
        let reached = Self.turnsPlayed(in: terminal.scrollback(), after: "play 1..25 --delay 3000")
        #expect(reached.count < 25 && reached == Array(1...reached.count), "\(reached)")
        #expect(stopped.contains("play stopped at turn \(reached.last ?? 0)"), "\(stopped)")
        terminal.waitFor("the prompt at the turn it stopped at") {
            TerminalSession.lastLine($0).hasSuffix("turn \(reached.last ?? 0)/25>")
        }
    }

    /// The turn numbers `play` printed after the last time `command` was typed.
    static func turnsPlayed(in scrollback: String, after command: String) -> [Int] {
        guard let typed = scrollback.range(of: command, options: .backwards) else { return [] }
        return scrollback[typed.upperBound...].split(separator: "\n").compactMap { line in
            line.hasPrefix("turn:") ? Int(line.dropFirst("turn:".count).trimmingCharacters(in: .whitespaces)) : nil
        }
    }
}
