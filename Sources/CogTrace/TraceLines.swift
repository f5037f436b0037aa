import CogTraceFormat

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

    /// A turn's record, written without building its JSON values first.
    mutating func append(_ turn: TraceTurn) {
        turn.write(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// The `idle` record of what happened after `turn`, if anything did.
    mutating func appendAfter(_ turn: TraceTurn) {
        if turn.writeAfter(to: &bytes) { bytes.append(UInt8(ascii: "\n")) }
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }
}
