import CogTraceFormat
import CogTraceStore
import Testing

@testable import CogInspector

/// A value recorded as text only (its type was not `Encodable`) has no fields: an expression or a
/// history that reads a field of it says it cannot be evaluated and why, never a negative answer.
@Suite("Fields of values recorded as text only")
struct TextOnlyValueTests {
    /// A quote whose value is text only: 6632 cents from turn 2.
    private func session() throws -> InspectorSession {
        let lines = [
            #"{"type":"header","format":"cogtrace","version":"1.1","minReader":"1.0","producer":"CogTrace 1.1","run":"virtual:q","title":"q","clock":"virtual","mode":"ring","capacity":100,"keyframeEvery":1000}"#,
            #"{"type":"state","id":1,"label":"shop.quote","decl":"shop.quote","key":null,"shape":"manual","valueType":"TaxQuote","lifetime":"app","policy":null}"#,
            #"{"type":"keyframe","before":1,"states":[],"registrations":[]}"#,
            #"{"type":"turn","seq":1,"name":"open","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"created","s":1,"v":{"t":"TaxQuote(taxCents: 0)"}}]}"#,
            #"{"type":"turn","seq":2,"name":"quote","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"write","s":1,"old":{"t":"TaxQuote(taxCents: 0)"},"new":{"t":"TaxQuote(taxCents: 6632)"}}]}"#,
            #"{"type":"trailer","ok":true,"turns":2,"evicted":0,"dropped":0,"keyframes":1}"#,
        ]
        return InspectorSession(trace: try TraceFile.parse(lines.joined(separator: "\n")), source: "quote")
    }

    @Test(arguments: ["bisect shop.quote.taxCents == 6632", "expect shop.quote.taxCents == 6632"])
    func anExpressionOverATextOnlyFieldIsRefusedWithWhy(command: String) throws {
        let session = try session()
        #expect {
            _ = try session.execute(command)
        } throws: { error in
            let message = "\(error)"
            return message.contains("cannot evaluate 'shop.quote.taxCents'")
                && message.contains("recorded as text only")
        }
    }

    @Test func theWholeValueStillComparesAsText() throws {
        let session = try session()
        let result = try #require(try session.execute(#"bisect shop.quote == "TaxQuote(taxCents: 6632)""#))
        #expect(ReportRenderer().text(result).contains("turn 2"))
    }

    @Test func aFieldsHistorySaysWhyItCannotBeShown() throws {
        let session = try session()
        let text = ReportRenderer().text(try #require(try session.execute("history shop.quote.taxCents")))
        #expect(text.contains("cannot evaluate 'shop.quote.taxCents'"), "\(text)")
        #expect(!text.contains("never changed"))
    }
}
