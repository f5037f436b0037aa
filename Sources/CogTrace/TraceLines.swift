/// Builds `.cogtrace` text: one JSON record per line, as UTF-8 bytes.
struct TraceLines {
    private(set) var bytes: [UInt8] = []

    var isEmpty: Bool { bytes.isEmpty }

    /// The lines as text.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ record: JSONValue) {
        record.write(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }
}
