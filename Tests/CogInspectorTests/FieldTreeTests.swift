import CogTraceFormat
import Testing

@testable import CogInspector

/// How a structured value reads in text: a field per line, levels indented, names in one
/// container aligned, a long value cut with a note, control bytes escaped.
@Suite("Field trees")
struct FieldTreeTests {
    private func text(_ json: JSONValue, lineWidth: Int? = nil) -> String {
        let value = TraceValue(text: "Shop.Thing(…)", json: json)
        return ReportRenderer(lineWidth: lineWidth).text(
            CommandResult(
                command: "get", report: [.fields([Field("state", .text("s")), Field("value", .value(value))])]))
    }

    @Test func nestedContainersIndentAndAlign() {
        let json = JSONValue.object([
            ("id", .int(7)), ("customerName", .string("Ada")),
            ("address", .object([("city", .string("Leeds")), ("postcode", .string("LS1"))])), ("tags", .array([])),
        ])
        #expect(
            text(json) == """
                state: s
                value: 4 fields
                  id:           7
                  customerName: "Ada"
                  address:
                    city:     "Leeds"
                    postcode: "LS1"
                  tags:         []
                """)
    }

    @Test func scalarsAndEmptyContainersStayOnOneLine() {
        #expect(text(.int(3)) == "state: s\nvalue: Shop.Thing(…)")
        #expect(text(.array([])) == "state: s\nvalue: Shop.Thing(…)")
    }

    @Test func aLongValueIsCutWithTheCountOfWhatIsLeft() throws {
        let json = JSONValue.array((0..<150).map { .object([("n", .int($0)), ("m", .int($0))]) })
        let lines = text(json).split(separator: "\n")
        // Two lines of fields, 200 tree lines, then the note: 450 lines in all, 250 cut.
        #expect(lines.count == 2 + FieldTree.limit + 1)
        #expect(lines.last?.contains("… 250 more lines") == true, "\(lines.last ?? "")")
    }

    @Test func namesAndStringsFromTheTraceAreEscaped() {
        let rendered = text(.object([("evil\u{1B}[2J", .string("a\u{7}b"))]))
        #expect(!rendered.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test func aWrappedLeafKeepsItsLevel() {
        let json = JSONValue.object([
            ("inner", .object([("note", .string(String(repeating: "word ", count: 20)))]))
        ])
        let lines = text(json, lineWidth: 40).split(separator: "\n").dropFirst(3)
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.hasPrefix("    ") }, "\(lines)")
    }
}
