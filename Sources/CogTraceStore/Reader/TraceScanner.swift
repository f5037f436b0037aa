import CogTraceFormat
import Foundation

/// Reads `.cogtrace` bytes line by line: the header, states and keyframes decoded at once, turn
/// records only located. Tolerant of what a crash or a newer minor version leaves (a truncated
/// last line, a missing trailer, unknown record types), strict about anything else.
enum TraceScanner {
    /// The longest line accepted, in bytes.
    static let maxLineBytes = 64 << 20

    static func scan(
        _ bytes: TraceBytes, memoryBudget: MemoryBudget = .standard, progress: ((TraceProgress) -> Void)? = nil
    ) throws(TraceReadError) -> TraceFile {
        var contents = TraceContents()
        try contents.read(bytes, memoryBudget: memoryBudget, waitsForPartialLine: false, progress: progress)
        guard let header = contents.header else { throw contents.missingHeader(in: bytes) }
        contents.checkEnds()
        if contents.trailer == nil {
            contents.warnings.append(
                TraceWarning(line: 0, message: "no trailer: the recorder did not finish; the trace may be incomplete"))
        }
        return TraceFile(header: header, contents: contents, bytes: bytes)
    }

    static func readHeader(_ record: JSONValue, line: Int) throws(TraceReadError) -> TraceHeader {
        guard let header = TraceHeader(jsonValue: record), header.format == "cogtrace" else {
            throw TraceReadError(line: line, message: "not a cogtrace header (expected \"format\":\"cogtrace\")")
        }
        let major = Int(header.minimumReaderVersion.split(separator: ".").first ?? "") ?? Int.max
        guard major <= TraceFormat.readerMajor else {
            throw TraceReadError(
                line: line,
                message: "trace needs reader version \(header.minimumReaderVersion); "
                    + "this reader reads \(TraceFormat.readerMajor).x")
        }
        return header
    }

    static func parseLine(_ bytes: ArraySlice<UInt8>, line: Int) throws(TraceReadError) -> JSONValue {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw TraceReadError(line: line, column: error.column, message: error.message)
        }
    }

    static func decodeTurn(_ record: JSONValue, line: Int) throws(TraceReadError) -> TraceTurn {
        guard let sequence = record["seq"]?.intValue, let name = record["name"]?.stringValue,
            let origin = record["origin"]?.stringValue
        else {
            throw TraceReadError(line: line, message: "turn record needs 'seq', 'name' and 'origin'")
        }
        let start = record["start"]?.intValue ?? 0
        let duration = record["duration"]?.intValue ?? 0
        for (name, number) in [("seq", sequence), ("start", start), ("duration", duration)]
        where !validCounts.contains(number) {
            throw TraceReadError(line: line, message: "turn '\(name)' \(number) is outside 0..<2^53")
        }
        return TraceTurn(
            sequence: TurnNumber(sequence), name: name, origin: TurnOrigin(rawValue: origin),
            cause: record["cause"]?.turnNumber,
            start: start, duration: duration, events: try decodeEvents(record, line: line))
    }

    /// The `events` of a turn or idle record; events of an unknown kind are skipped.
    static func decodeEvents(_ record: JSONValue, line: Int) throws(TraceReadError) -> [TraceEvent] {
        guard let values = record["events"]?.arrayValue else {
            throw TraceReadError(line: line, message: "record needs an 'events' array")
        }
        var events: [TraceEvent] = []
        events.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            if let event = try decodeEvent(value, index: index, line: line) { events.append(event) }
        }
        return events
    }

    /// One event of a record's `events` array (at `index`, from 0); nil for a kind this reader
    /// does not know.
    static func decodeEvent(_ value: JSONValue, index: Int, line: Int) throws(TraceReadError) -> TraceEvent? {
        do {
            return try TraceEvent(jsonValue: value)
        } catch {
            throw TraceReadError(line: line, message: "event \(index + 1): \(error)")
        }
    }

    /// The position of the next line feed at or after `start`, found with `memchr`.
    static func nextNewline(in bytes: TraceBytes, from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard start < buffer.count, let base = buffer.baseAddress,
                let found = memchr(base + start, 0x0A, buffer.count - start)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Turn numbers, times and durations a reader accepts: whole numbers JSON carries exactly,
    /// so arithmetic on them can never overflow.
    static let validCounts = TraceFormat.countRange

    private static let typePrefix = Array(#"{"type":""#.utf8)
    private static let turnSequencePrefix = Array(#"{"type":"turn","seq":"#.utf8)
    /// Whether `buffer` holds `prefix` and at least one byte after it.
    @inline(__always)
    private static func begins(_ buffer: UnsafeBufferPointer<UInt8>, with prefix: [UInt8]) -> Bool {
        guard let base = buffer.baseAddress, buffer.count > prefix.count else { return false }
        return memcmp(base, prefix, prefix.count) == 0
    }

    /// How many lines of `bytes` start as this package writes a turn record: what the reader
    /// reserves room for (a turn written otherwise is still read, in room made as it comes).
    static func turnRecordCount(in bytes: TraceBytes) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            var count = 0
            var start = 0
            var counted = 0
            while start < buffer.count {
                if begins(UnsafeBufferPointer(rebasing: buffer[start...]), with: turnSequencePrefix) { count += 1 }
                guard let newline = memchr(base + start, 0x0A, buffer.count - start) else { break }
                start = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
                if start - counted >= TraceContents.progressStep {
                    bytes.noteRead(start - counted)
                    counted = start
                }
            }
            return count
        }
    }

    /// What a line's first bytes say of its record, when the line starts the way this package
    /// writes records: a turn or idle record is only located, a keyframe's size is checked
    /// before it is parsed, and any other record is parsed whole anyway.
    enum QuickType {
        case turn, idle, keyframe, other
    }

    private static let quickNames: [(name: [UInt8], type: QuickType)] = [
        (Array("turn".utf8), .turn), (Array("idle".utf8), .idle), (Array("keyframe".utf8), .keyframe),
    ]

    /// The record type when the line starts the way this package writes records; nil otherwise.
    /// Two lines a turn come through here, so it compares bytes and makes no string.
    static func quickType(_ line: ArraySlice<UInt8>) -> QuickType? {
        line.withUnsafeBufferPointer { buffer -> QuickType? in
            guard let base = buffer.baseAddress, begins(buffer, with: typePrefix) else { return nil }
            let name = base + typePrefix.count
            let available = min(buffer.count - typePrefix.count, 16)
            guard let quote = UnsafeBufferPointer(start: name, count: available).firstIndex(of: UInt8(ascii: "\""))
            else { return nil }
            for (known, type) in quickNames where known.count == quote && memcmp(name, known, quote) == 0 {
                return type
            }
            return .other
        }
    }

    static func quickSequence(_ line: ArraySlice<UInt8>) -> Int? {
        line.withUnsafeBufferPointer { buffer -> Int? in
            guard begins(buffer, with: turnSequencePrefix) else { return nil }
            var value = 0
            var index = turnSequencePrefix.count
            var digits = 0
            while index < buffer.count {
                let digit = buffer[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                // Longer numbers than this are left to the full parse, which reads (and refuses)
                // them whole.
                guard digits < 16 else { return nil }
                value = value * 10 + Int(digit)
                index += 1
                digits += 1
            }
            guard digits > 0, index < buffer.count, buffer[index] == UInt8(ascii: ",") else { return nil }
            return value
        }
    }
}
