import Testing

@testable import CogTraceFormat
@testable import CogTraceStore

/// The word-at-a-time search for a string's end is held to the byte-at-a-time rule it
/// replaces, on every offset and length a word boundary can cut.
@Suite("Plain run of a string")
struct PlainRunTests {
    /// The rule, a byte at a time.
    private func reference(_ bytes: [UInt8], from start: Int, stoppingAtControls: Bool) -> Int {
        var position = start
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (stoppingAtControls && byte < 0x20) {
                return position
            }
            position += 1
        }
        return bytes.count
    }

    private func found(_ bytes: [UInt8], from start: Int, stoppingAtControls: Bool) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            PlainRun.end(in: buffer.baseAddress!, from: start, to: buffer.count, stoppingAtControls: stoppingAtControls)
        }
    }

    @Test func eachStopIsFoundAtEveryOffsetOfAWord() {
        // Bytes around every stop, including ones the zero-byte trick could confuse with it:
        // 0x21 and 0x23 beside the quote, 0x5B and 0x5D beside the backslash, 0x1F and 0x20 at
        // the control boundary, and UTF-8 bytes with the high bit set.
        let stops: [UInt8] = [UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x00, 0x0A, 0x1F]
        let fillers: [UInt8] = [UInt8(ascii: "a"), 0x21, 0x23, 0x5B, 0x5D, 0x20, 0x7F, 0x80, 0xC3, 0xFF, 0x01]
        for stop in stops {
            for filler in fillers {
                for length in 0...20 {
                    for place in 0...length {
                        var bytes = Array(repeating: filler, count: length)
                        if place < length { bytes[place] = stop }
                        for start in [0, min(1, length), min(3, length)] {
                            for controls in [false, true] {
                                #expect(
                                    found(bytes, from: start, stoppingAtControls: controls)
                                        == reference(bytes, from: start, stoppingAtControls: controls),
                                    "stop \(stop) filler \(filler) length \(length) place \(place) start \(start)")
                            }
                        }
                    }
                }
            }
        }
    }

    @Test func randomBytesAgreeWithTheRule() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...64, using: &generator)
            // Mostly plain bytes, with the odd stop, so runs of every length occur.
            let bytes = (0..<count).map { _ -> UInt8 in
                Int.random(in: 0..<12, using: &generator) == 0
                    ? [UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x05][Int.random(in: 0..<3, using: &generator)]
                    : UInt8.random(in: 0x20...0xFF, using: &generator)
            }
            let start = count == 0 ? 0 : Int.random(in: 0...count, using: &generator)
            for controls in [false, true] {
                #expect(
                    found(bytes, from: start, stoppingAtControls: controls)
                        == reference(bytes, from: start, stoppingAtControls: controls), "\(bytes) from \(start)")
            }
        }
    }
}
