import CogTraceFormat

/// Where the plain run of a JSON string's contents ends: the first closing quote, backslash or
/// (when asked) control byte, found eight bytes at a time. Building the event index scans
/// every string of a trace, and a byte at a time that loop was a third of the build.
///
/// Each word is tested with the classic zero-byte trick, `(x - 0x01…) & ~x & 0x80…`, applied
/// to `x ^ quote`, `x ^ backslash` and (for bytes below 0x20) to `x` against 0x20: a flag can be
/// wrong only in a byte above one that truly matches, so the lowest flag is the first stop.
enum PlainRun {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The offset of the first byte from `start` that is a quote or a backslash, or, with
    /// `stoppingAtControls`, below 0x20; `end` when there is none before it.
    @inline(__always)
    static func end(
        in base: UnsafePointer<UInt8>, from start: Int, to end: Int, stoppingAtControls: Bool
    ) -> Int {
        var position = start
        while position + 8 <= end {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
            let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
            var found = (quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes
            if stoppingAtControls { found |= (word &- ones &* 0x20) & ~word }
            found &= highBits
            if found != 0 { return position + found.trailingZeroBitCount / 8 }
            position += 8
        }
        while position < end {
            let byte = base[position]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (stoppingAtControls && byte < 0x20) {
                return position
            }
            position += 1
        }
        return end
    }
}
