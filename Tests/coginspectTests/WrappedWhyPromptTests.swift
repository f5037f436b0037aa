import Foundation
import Testing

/// `why` at the prompt on a narrow terminal: the renderer wraps each line itself, knowing the
/// width, so a wrapped piece of a link keeps the tree guides and indentation of its branch and
/// never reads as a cause of its own. Driven under tmux at three widths.
@Suite("why wraps within its branch", .serialized, .enabled(if: TerminalSession.isAvailable, "needs tmux"))
struct WrappedWhyPromptTests {
    private let terminal = TerminalSession("why-wrap")

    /// A checkout whose order button depends, six links down, on the basket's line items.
    static let trace = "Tests/coginspectTests/Fixtures/ShopTests.theOrderButtonEnables.cogtrace"

    @Test(arguments: [60, 80, 100])
    func everyWrappedLineKeepsItsBranch(columns: Int) throws {
        let home = try terminal.startInspector(Self.trace, columns: columns, rows: 90)
        defer { terminal.stop(removing: home) }
        terminal.waitFor("the prompt") { TerminalSession.lastLine($0).hasSuffix("turn 4/4>") }
        terminal.send("why shop.checkout.placeOrderButtonIsEnabledForTheCurrentBasket @3 --all", "Enter")
        let screen = terminal.waitFor("the answer and the prompt after it") { screen in
            screen.contains("(openStore())") && TerminalSession.lastLine(screen).hasSuffix("turn 4/4>")
        }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.firstIndex(where: { $0.hasPrefix("shop.checkout.placeOrderButton") }) else {
            Issue.record("no answer on the screen:\n\(screen)")
            return
        }
        let answer = lines[first...].filter { !$0.isEmpty && !$0.hasSuffix("turn 4/4>") }
        let problems = Self.linesOutsideTheirBranch(Array(answer))
        #expect(problems.isEmpty, "at \(columns) columns:\n\(problems.joined(separator: "\n"))\n\n\(screen)")
        // Six links deep, and wrapped: the test is about something.
        #expect(answer.contains { $0.hasPrefix("│ │     └ shop.basket.lineItems:") }, "\(screen)")
        #expect(answer.count > 8, "\(screen)")
    }

    /// The lines that leave their branch: no line but the first starts at the left edge, no
    /// line is wider than the screen, and a continuation's text starts right of the link it
    /// continues.
    static func linesOutsideTheirBranch(_ lines: [String]) -> [String] {
        var problems: [String] = []
        var linkText = 0
        for (index, line) in lines.enumerated() {
            let characters = Array(line)
            let guides = characters.prefix { " │├└".contains($0) }.count
            let isLink = characters.prefix(guides).contains { $0 == "├" || $0 == "└" }
            if index > 0, guides == 0 { problems.append("at the left edge: \(line)") }
            if isLink || index == 0 {
                linkText = guides
            } else if guides <= linkText {
                problems.append("a continuation no deeper than its link: \(line)")
            }
        }
        return problems
    }
}
