import Foundation
import Testing

/// A failing test's trace, opened at the prompt, says that it holds a failure and that the
/// cursor opened at the last turn before it. Driven under tmux.
@Suite("Opening a failing test's trace", .serialized, .enabled(if: TerminalSession.isAvailable, "needs tmux"))
struct OpeningAFailureTests {
    private let terminal = TerminalSession("failure")

    @Test func theBannerNamesTheFailureAndWhereTheCursorIs() throws {
        let trace = "Tests/coginspectTests/Fixtures/TipJarTests.theTotalIncludesTheTip.cogtrace"
        let home = try terminal.startInspector(trace, columns: 200)
        defer { terminal.stop(removing: home) }
        let screen = terminal.waitFor("the banner and the prompt") { $0.contains("turn 2/2>") }
        #expect(screen.contains("'TipJarTests.theTotalIncludesTheTip' failed: Expectation failed"), "\(screen)")
        #expect(screen.contains("(TipJarTests/TipJarTests.swift:"), "\(screen)")
        #expect(screen.contains("the cursor is at turn 2, the last before it"), "\(screen)")
        #expect(TerminalSession.lastLine(screen).contains("turn 2/"), "\(screen)")
    }
}
