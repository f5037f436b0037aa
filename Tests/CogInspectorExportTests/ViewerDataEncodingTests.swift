import CogInspector
import Foundation
import Testing

@testable import CogInspectorExport

/// A page's data stays JSON while small, and past the threshold is gzip in base64 that reads
/// back to the same JSON; a broken member is refused, never half-read.
@Suite("Viewer data encoding")
struct ViewerDataEncodingTests {
    @Test func smallDataStaysReadableJSON() {
        let element = ViewerDataEncoding.element(for: #"{"a":1}"#)
        #expect(element.tag == ViewerDataEncoding.jsonTag)
        #expect(element.content == #"{"a":1}"#)
    }

    @Test func largeDataIsGzippedAndReadsBack() throws {
        let json = "[" + (0..<200_000).map { #"{"label":"catalog.item[\#($0)]"}"# }.joined(separator: ",") + "]"
        let element = ViewerDataEncoding.element(for: json)
        #expect(element.tag == ViewerDataEncoding.gzipTag)
        #expect(element.content.utf8.count < json.utf8.count / 4)
        let page = "<body>" + element.tag + element.content + "</script><script>x()</script>"
        #expect(ViewerDataEncoding.json(inPage: page) == json)
    }

    @Test func aCutOrForeignMemberIsRefused() throws {
        let packed = try #require(ViewerDataEncoding.gzip(Array(String(repeating: "cog ", count: 5_000).utf8)))
        #expect(ViewerDataEncoding.gunzip(Array(packed.dropLast(20))) == nil)
        #expect(ViewerDataEncoding.gunzip(Array("not gzip at all".utf8)) == nil)
        #expect(ViewerDataEncoding.gunzip(packed).map { $0.count } == 20_000)
    }

    @Test func theWidePageCarriesItsDataGzippedAndEveryTurnIsThere() throws {
        let session = try Recording.wide(states: 600, turns: 1_200)
        let html = try ViewerPage.render(session.context(), graphviz: nil).html
        #expect(html.contains(ViewerDataEncoding.gzipTag))
        let data = try ViewerPageData.embedded(in: html)
        #expect((data["turns"] as? [Any])?.count == session.turns.count)
    }
}
