import CogTraceFormat

/// Whether a run of bytes is well-formed UTF-8 as RFC 3629 defines it: no stray continuation
/// byte, no truncated sequence, no overlong form, no surrogate, nothing past U+10FFFF.
///
/// The event scan checks every string it accepts with it, so a line the scan indexes is one the
/// strict decoder would also accept: the two can never disagree about which turns are readable.
/// Trace strings are mostly ASCII, so it skips eight such bytes at a time.
enum WellFormedUTF8 {
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether `base[start..<end]` is well-formed UTF-8.
    static func check(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Bool {
        var position = start
        while position < end {
            if position + 8 <= end {
                let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
                if word & highBits == 0 {
                    position += 8
                    continue
                }
            }
            let first = base[position]
            if first < 0x80 {
                position += 1
                continue
            }
            guard let length = sequenceLength(after: first, at: position, in: base, end: end) else { return false }
            position += length
        }
        return true
    }

    /// The length of the multi-byte sequence that starts with `first` at `position`, or nil when
    /// it is not well formed. The second byte's allowed range carries the overlong, surrogate and
    /// upper-bound rules (Table 3-7 of the Unicode standard).
    private static func sequenceLength(
        after first: UInt8, at position: Int, in base: UnsafePointer<UInt8>, end: Int
    ) -> Int? {
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch first {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            secondRange = 0x80...0x9F
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        default: return nil
        }
        guard position + length <= end, secondRange.contains(base[position + 1]) else { return nil }
        for offset in 2..<length where base[position + offset] & 0xC0 != 0x80 { return nil }
        return length
    }
}
