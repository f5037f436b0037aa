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

    /// Appends `bytes`. Up to sixteen (a member name, a literal, the digits of a number: most of
    /// what a trace writer appends) go as two words that may overlap, the first from the start
    /// and the second ending at the end, so a short copy costs the same few instructions
    /// whatever its length; a byte loop had been a tenth of a stream writer's instructions.
    @inline(__always)
    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let length = bytes.count
        if count + length > capacity { grow(toHold: count + length) }
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(base + count)
        switch length {
        case 8...16: Self.copyOverlapping(UInt64.self, length, from, to)
        case 4..<8: Self.copyOverlapping(UInt32.self, length, from, to)
        case 2..<4: Self.copyOverlapping(UInt16.self, length, from, to)
        case 1: to.storeBytes(of: from.load(as: UInt8.self), as: UInt8.self)
        default: to.copyMemory(from: from, byteCount: length)
        }
        count += length
    }

    /// Copies `length` bytes, between one and two words of `Word`, as the word at the start and
    /// the word at the end: every byte read and written lies within the `length`.
    @inline(__always)
    private static func copyOverlapping<Word: FixedWidthInteger>(
        _: Word.Type, _ length: Int, _ from: UnsafeRawPointer, _ to: UnsafeMutableRawPointer
    ) {
        let tail = length - MemoryLayout<Word>.size
        let first = from.loadUnaligned(as: Word.self)
        let last = from.loadUnaligned(fromByteOffset: tail, as: Word.self)
        to.storeBytes(of: first, as: Word.self)
        to.storeBytes(of: last, toByteOffset: tail, as: Word.self)
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
        // overflow), plus the sign. The digits are written through a local pointer and the count
        // set once: through `base[count]` every store reloaded both.
        if count + 21 > capacity { grow(toHold: count + 21) }
        var start = base + count
        if number < 0 {
            start.pointee = UInt8(ascii: "-")
            start += 1
        }
        var magnitude = number.magnitude
        let end = start + Self.digitCount(magnitude)
        var position = end
        // Two digits per division, from a table of "00" to "99", each pair one 16-bit store.
        let pairs = UnsafeRawPointer(Self.digitPairs.utf8Start)
        while magnitude >= 100 {
            let pair = Int(magnitude % 100) &* 2
            magnitude /= 100
            position -= 2
            UnsafeMutableRawPointer(position).storeBytes(
                of: pairs.loadUnaligned(fromByteOffset: pair, as: UInt16.self), as: UInt16.self)
        }
        if magnitude >= 10 {
            UnsafeMutableRawPointer(position - 2).storeBytes(
                of: pairs.loadUnaligned(fromByteOffset: Int(magnitude) &* 2, as: UInt16.self), as: UInt16.self)
        } else {
            (position - 1).pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
        }
        count = end - base
    }

    /// How many decimal digits `magnitude` has: comparisons for the common sizes, a loop past
    /// them.
    @inline(__always)
    private static func digitCount(_ magnitude: UInt) -> Int {
        if magnitude < 10_000 { return magnitude < 100 ? (magnitude < 10 ? 1 : 2) : (magnitude < 1_000 ? 3 : 4) }
        if magnitude < 100_000_000 {
            return magnitude < 1_000_000 ? (magnitude < 100_000 ? 5 : 6) : (magnitude < 10_000_000 ? 7 : 8)
        }
        var digits = 9
        var limit: UInt = 1_000_000_000
        while digits < 20, magnitude >= limit {
            digits += 1
            limit = limit &* 10
        }
        return digits
    }

    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// Appends again the bytes appended at `range`: a number's digits written once and wanted
    /// twice, say, without making them again.
    @inline(__always)
    package mutating func appendCopy(of range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "copying bytes that were not appended")
        // Room first, so the copy's source (in this buffer) cannot move under it.
        if count + range.count > capacity { grow(toHold: count + range.count) }
        append(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }

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
    ///
    /// An empty buffer gets new memory instead, from the calling thread: with no bytes to keep,
    /// `realloc` saves nothing, and it grows a block in the heap it came from. A stream's buffers
    /// are made on the app's thread and filled on the writer's, whose megabyte then grew in the
    /// app's heap under that heap's lock, with the app's thread waiting on it to allocate.
    package mutating func reserveCapacity(_ minimum: Int) {
        guard capacity < minimum else { return }
        guard count == 0 else { return resize(to: minimum) }
        free(base)
        base = Self.allocate(minimum)
        capacity = minimum
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
