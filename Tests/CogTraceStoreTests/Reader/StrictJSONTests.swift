import Testing

@testable import CogTraceFormat
@testable import CogTraceStore

/// The event scan and the decoder judge a line the same way: RFC 8259 JSON with well-formed
/// UTF-8 and no raw control byte in a string, or it is undecodable. Held against Swift's own
/// UTF-8 validation on every short sequence a mutation can make.
@Suite("Strict JSON")
struct StrictJSONTests {
    /// A one-event turn whose value's text is `text` (raw bytes, inside quotes).
    private func record(valueText text: [UInt8]) -> [UInt8] {
        Array(#"{"type":"turn","seq":1,"events":[{"e":"write","s":1,"new":{"t":""#.utf8) + text
            + Array(#"","j":1}}]}"#.utf8)
    }

    private func scans(_ record: [UInt8]) -> Bool {
        record.withUnsafeBufferPointer { bytes in
            var scanner = EventScanner(bytes: bytes, range: 0..<bytes.count)
            var events: [EventScanner.Event] = []
            return scanner.events(into: &events)
        }
    }

    private func decodes(_ record: [UInt8]) -> Bool {
        (try? JSONParser.parse(record)) != nil
    }

    @Test func everyShortByteSequenceIsJudgedAsSwiftsUTF8ValidationDoes() {
        let interesting: [UInt8] = [
            0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
        ]
        let continuations: [UInt8] = [0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0x41]
        var checked = 0
        for first in interesting {
            for second in continuations {
                for third in continuations {
                    for fourth in [UInt8(0x80), 0xBF, 0x41] {
                        let text = [first, second, third, fourth]
                        let valid = String(validating: text, as: UTF8.self) != nil
                        let line = record(valueText: text)
                        #expect(scans(line) == valid, "scan of \(text)")
                        #expect(decodes(line) == valid, "decode of \(text)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 15 * 7 * 7 * 3)
    }

    @Test func rawControlBytesInAStringAreNotJSON() {
        for control: UInt8 in [0x00, 0x07, 0x0A, 0x1B, 0x1F] {
            let line = record(valueText: Array("clear".utf8) + [control])
            #expect(!scans(line) && !decodes(line), "control \(control)")
        }
        let escaped = record(valueText: Array(#"clear\u001b"#.utf8))
        #expect(scans(escaped) && decodes(escaped), "an escaped control is fine")
    }

    @Test func aSyntaxErrorInsideANestedValueIsNotJSON() {
        let line = Array(#"{"type":"turn","seq":1,"events":[{"e":"write","s":1,"new":{"t":"false"-"j":false}}]}"#.utf8)
        #expect(!scans(line))
        #expect(!decodes(line))
    }

    @Test func wellFormedTextOfEveryLengthScans() {
        let text = "Zürich ☀︎ 𝄞 clear"
        for cut in 0...text.utf8.count {
            let bytes = Array(text.utf8.prefix(cut))
            let valid = String(validating: bytes, as: UTF8.self) != nil
            #expect(scans(record(valueText: bytes)) == valid, "prefix of \(cut) bytes")
        }
    }
}
