extension Array where Element == UInt8 {
    /// Appends `bytes`, one at a time when there are a few: for a member name, a literal or the
    /// digits of a number, the generic copy `append(contentsOf:)` makes costs several times the
    /// bytes it moves, and a trace writes millions of them.
    @inline(__always)
    mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count > 8 else {
            for byte in bytes { append(byte) }
            return
        }
        append(contentsOf: bytes)
    }

    /// Appends the UTF-8 bytes of `literal`.
    @inline(__always)
    mutating func appendBytes(of literal: StaticString) {
        appendBytes(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}
