import CogTraceFormat

/// Writes the integers and strings of a sidecar index: LEB128 varints, zigzag for signed ones.
struct IndexEncoder {
    var bytes: [UInt8] = []

    mutating func unsigned(_ value: Int) {
        var rest = UInt64(max(0, value))
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func signed(_ value: Int) {
        let zigzag = UInt64(bitPattern: Int64(value) << 1) ^ UInt64(bitPattern: Int64(value) >> 63)
        var rest = zigzag
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func string(_ text: String) {
        unsigned(text.utf8.count)
        bytes += text.utf8
    }
}

/// Reads what `IndexEncoder` wrote, checking every number before it is used: a varint past
/// 63 bits, a count beyond what the file can hold, or a range outside the trace is `.corrupt`.
struct IndexDecoder {
    let bytes: ArraySlice<UInt8>
    private(set) var offset: Int

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        offset = bytes.startIndex
    }

    var isAtEnd: Bool { offset == bytes.endIndex }

    mutating func raw() throws(TraceIndexFile.Problem) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.endIndex, shift < 63 else { throw .corrupt }
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    mutating func unsigned() throws(TraceIndexFile.Problem) -> Int {
        let value = try raw()
        guard value <= UInt64(Int.max) else { throw .corrupt }
        return Int(value)
    }

    mutating func signed() throws(TraceIndexFile.Problem) -> Int {
        let zigzag = try raw()
        return Int(Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1))))
    }

    /// A count of items, each at least a byte long, so no more than the bytes left (and `limit`).
    mutating func count(atMost limit: Int) throws(TraceIndexFile.Problem) -> Int {
        let count = try unsigned()
        guard count <= limit, count <= bytes.endIndex - offset else { throw .corrupt }
        return count
    }

    /// `start..<start + length`, which must lie within `0..<size`.
    static func range(from start: Int, length: Int, within size: Int) throws(TraceIndexFile.Problem) -> Range<Int> {
        guard start >= 0, length >= 0, start <= size, length <= size - start else { throw .corrupt }
        return start..<(start + length)
    }

    /// Eight bytes, little-endian.
    mutating func word() throws(TraceIndexFile.Problem) -> UInt64 {
        guard bytes.endIndex - offset >= 8 else { throw .corrupt }
        var value: UInt64 = 0
        for place in 0..<8 { value |= UInt64(bytes[offset + place]) << (8 * UInt64(place)) }
        offset += 8
        return value
    }

    mutating func string() throws(TraceIndexFile.Problem) -> String {
        let length = try count(atMost: bytes.endIndex - offset)
        let text = bytes[offset..<(offset + length)]
        offset += length
        return String(decoding: text, as: UTF8.self)
    }
}
