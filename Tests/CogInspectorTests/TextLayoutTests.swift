import Testing

@testable import CogInspector

@Suite("Text layout for a line width")
struct TextLayoutTests {
    @Test func proseWrapsAtSpacesWithinTheWidth() {
        let layout = TextLayout(lineWidth: 20)
        let lines = layout.wrap("the causal chain from the value at the cursor", indent: "  ")
        #expect(lines == ["  the causal chain", "  from the value at", "  the cursor"])
        #expect(lines.allSatisfy { $0.count <= 20 })
    }

    @Test func aWordLongerThanALineIsSplitNotCut() {
        let word = String(repeating: "x", count: 45)
        let lines = TextLayout(lineWidth: 20).wrap("a " + word + " b", indent: "")
        #expect(lines.allSatisfy { $0.count <= 20 })
        #expect(lines.joined().filter { $0 == "x" }.count == 45, "every character is kept")
        #expect(lines.first == "a")
        #expect(lines.last?.hasSuffix("b") == true)
    }

    @Test func noLimitLeavesTextAsItIs() {
        let text = String(repeating: "word ", count: 50)
        #expect(TextLayout(lineWidth: nil).wrap(text, indent: "> ") == ["> " + text])
    }

    @Test func aTableThatFitsKeepsItsColumns() {
        let (header, body) = TextLayout(lineWidth: 40).table(
            columns: ["turn", "name"], rows: [["1", "assembly"], ["12", "selectZip"]], indent: "")
        #expect(header == ["turn  name", "----  ---------"])
        #expect(body == ["1     assembly", "12    selectZip"])
    }

    @Test func aLongLastColumnWrapsUnderItself() {
        let (header, body) = TextLayout(lineWidth: 40).table(
            columns: ["command", "what it does"],
            rows: [["goto N", "move the cursor to turn N, then show the turn it reached"]], indent: "  ")
        #expect((header + body).allSatisfy { $0.count <= 40 })
        #expect(body.count == 2)
        #expect(body.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 10)) })
        #expect(body.joined(separator: " ").split(separator: " ").count == 14, "every word is kept")
    }

    @Test func wideLeadingColumnsStackEachRow() {
        let synopsis = "export dot|mermaid [--turn N] [--focus STATE [--depth D]] [--to FILE]"
        let (header, body) = TextLayout(lineWidth: 40).table(
            columns: ["command", "what it does"], rows: [[synopsis, "the graph as a document in its format"]],
            indent: "")
        #expect((header + body).allSatisfy { $0.count <= 40 })
        #expect(body.first?.hasPrefix("export dot") == true)
        #expect(body.last?.hasPrefix("    ") == true, "the description sits under the synopsis")
        #expect(body.joined(separator: " ").contains("--to FILE]"), "the synopsis is whole")
    }

    @Test(arguments: [40, 50, 60])
    func aMarkerColumnStaysOnItsRowWhenRowsStack(width: Int) {
        let rows = [
            ["24", "weather.forecast[98101] pending", "asyncCompletion", "-", "3", ""],
            ["25", "weather.forecast[98101] success", "asyncCompletion", "-", "6", "◀"],
        ]
        let (_, body) = TextLayout(lineWidth: width).table(
            columns: ["turn", "name", "origin", "cause", "events", "cursor"], rows: rows, indent: "")
        let marked = body.filter { $0.contains("◀") }
        #expect(marked.count == 1)
        #expect(
            marked.first?.hasPrefix("25 ") == true && marked.first?.contains("weather") == true,
            "the marker ends its row's first line: \(body)")
        #expect(body.allSatisfy { $0.contains { $0 != " " } }, "no blank line for an unmarked row")
        #expect(body.allSatisfy { $0.count <= width })
    }

    @Test func theRendererWrapsFieldsUnderTheirValueColumn() {
        let result = CommandResult(
            command: "help",
            report: [.fields([Field("description", .text(String(repeating: "word ", count: 30)))])])
        let lines = ReportRenderer(lineWidth: 50).text(result).split(separator: "\n")
        #expect(lines.count > 2)
        #expect(lines.allSatisfy { $0.count <= 50 })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 13)) })
    }
}
