#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bytes being built, in memory the buffer alone owns: appending a byte checks the capacity and
/// nothing else. An `[UInt8]` checks that its storage is unshared before every append, through
/// a call into the runtime, and a trace writer appends tens of bytes per event, so that check
/// was most of what writing JSON cost.
///
/// Noncopyable, so there is never a second owner to check for: the buffer moves, or is lent.
package struct ByteBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes have been appended.
    package private(set) var count = 0

    /// An empty buffer with room for `capacity` bytes before it first grows.
    package init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = Self.allocate(self.capacity)
    }

    deinit { free(base) }

    /// Whether nothing has been appended.
    package var isEmpty: Bool { count == 0 }

    /// Appends one byte.
    @inline(__always)
    package mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        base[count] = byte
        count += 1
    }

    /// Appends `bytes`: one at a time when there are a few (a member name, a literal, the digits
    /// of a number), else in one copy.
    @inline(__always)
    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity { grow(toHold: count + bytes.count) }
        if bytes.count <= 8 {
            for offset in 0..<bytes.count { base[count + offset] = source[offset] }
        } else {
            (base + count).update(from: source, count: bytes.count)
        }
        count += bytes.count
    }

    /// Appends the UTF-8 bytes of `literal`.
    @inline(__always)
    package mutating func append(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends the decimal digits of `number`, with a minus sign when negative, straight into
    /// the buffer: no `String`, and the digits written last first into their places.
    @inline(__always)
    package mutating func appendDecimal(_ number: Int) {
        // Ids, versions and small values are most of the numbers a trace writes.
        if number >= 0, number < 100 {
            if count + 2 > capacity { grow(toHold: count + 2) }
            if number >= 10 {
                base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: number / 10)
                count += 1
            }
            base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: number % 10)
            count += 1
            return
        }
        appendLongDecimal(number)
    }

    private mutating func appendLongDecimal(_ number: Int) {
        // 20 digits fit any magnitude of a 64-bit integer (taken unsigned, so Int.min cannot
        // overflow), plus the sign.
        if count + 21 > capacity { grow(toHold: count + 21) }
        let pairs = Self.digitPairs.utf8Start
        // Ids up to 9,999, the next most common numbers: two pairs from the table, no counting.
        if number >= 100, number < 10_000 {
            let high = number / 100
            let low = (number % 100) * 2
            if high >= 10 {
                base[count] = pairs[high * 2]
                count += 1
            }
            base[count] = pairs[high * 2 + 1]
            base[count + 1] = pairs[low]
            base[count + 2] = pairs[low + 1]
            count += 3
            return
        }
        if number < 0 {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        var magnitude = number.magnitude
        var digits = 1
        var limit: UInt = 10
        while digits < 20, magnitude >= limit {
            digits += 1
            limit = limit &* 10
        }
        var position = count + digits
        count = position
        // Two digits per division, from a table of "00" to "99".
        while magnitude >= 100 {
            let pair = Int(magnitude % 100) * 2
            magnitude /= 100
            position -= 2
            base[position] = pairs[pair]
            base[position + 1] = pairs[pair + 1]
        }
        if magnitude >= 10 {
            let pair = Int(magnitude) * 2
            base[position - 2] = pairs[pair]
            base[position - 1] = pairs[pair + 1]
        } else {
            base[position - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
        }
    }

    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// Appends an object member's name, `"name":`, after a comma unless it is the first.
    @inline(__always)
    package mutating func appendMemberName(_ name: StaticString, afterComma: Bool) {
        let length = name.utf8CodeUnitCount
        if count + length + 4 > capacity { grow(toHold: count + length + 4) }
        var position = count
        if afterComma {
            base[position] = UInt8(ascii: ",")
            position += 1
        }
        base[position] = UInt8(ascii: "\"")
        let source = name.utf8Start
        for offset in 0..<length { base[position + 1 + offset] = source[offset] }
        position += length + 1
        base[position] = UInt8(ascii: "\"")
        base[position + 1] = UInt8(ascii: ":")
        count = position + 2
    }

    /// Appends every byte of `bytes`.
    package mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        let copied: Void? = bytes.withContiguousStorageIfAvailable { append($0) }
        guard copied == nil else { return }
        for byte in bytes { append(byte) }
    }

    /// Forgets what was appended, keeping the memory for what comes next.
    package mutating func removeAll() { count = 0 }

    /// Removes the last `count` bytes appended.
    package mutating func removeLast(_ count: Int) {
        precondition(count <= self.count, "removing more bytes than were appended")
        self.count -= count
    }

    /// The last byte appended, if any.
    package var last: UInt8? { count == 0 ? nil : base[count - 1] }

    /// Lends the bytes appended so far.
    package func withUnsafeBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// A copy of the bytes appended so far.
    package var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The bytes appended so far, as UTF-8 text.
    package var text: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    /// Makes room for `minimum` bytes in all, at once, when there is less.
    package mutating func reserveCapacity(_ minimum: Int) {
        guard capacity < minimum else { return }
        resize(to: minimum)
    }

    /// Makes room for at least `needed` bytes, doubling so appends stay amortized constant.
    private mutating func grow(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        resize(to: newCapacity)
    }

    /// Moves the bytes into room for `newCapacity` with `realloc`: a big buffer (a streamed
    /// turn's events run to megabytes) keeps its pages where the system can remap them, where
    /// allocating anew and copying touched every page twice, each first touch a page fault
    /// that costs this machine's virtual memory several microseconds.
    private mutating func resize(to newCapacity: Int) {
        guard let moved = realloc(base, newCapacity) else {
            fatalError("out of memory growing a buffer to \(newCapacity) bytes")
        }
        base = moved.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
    }

    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        guard let memory = malloc(capacity) else { fatalError("out of memory allocating \(capacity) bytes") }
        return memory.assumingMemoryBound(to: UInt8.self)
    }
}
