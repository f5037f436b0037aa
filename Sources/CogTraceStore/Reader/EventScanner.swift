package import CogTraceFormat

/// A fast pass over one turn or idle record that finds its events without decoding them: each
/// event's kind, the ids it names and where its bytes are. Values are skipped (and checked to be
/// well-formed JSON, strings to be well-formed UTF-8), never built, so indexing a trace costs a
/// fraction of decoding it.
///
/// The scan is deliberately narrow. Anything it does not expect (an escaped key, a duplicate
/// member, an id that is not a plain integer, nesting or sizes past the parser's limits, no
/// `events` array) makes it give up on the record, and the caller decodes that record the
/// ordinary way, so the strict decoder stays the one judge of what a record means.
package struct EventScanner {
    /// One event of a record, located.
    package struct Event {
        /// The kind's bytes (`"recompute"` without quotes), as absolute offsets in the file.
        package var kind: Range<Int> = 0..<0
        /// `s`: the state the event is about.
        package var state: NodeID?
        /// `r`: the registration the event is about.
        package var registration: NodeID?
        /// `s` or, failing that, `r`: what the timeline files the event under.
        package var subject: NodeID? { state ?? registration }
        /// `p`: the producer of an edge event.
        package var producer: NodeID?
        /// The event object's bytes, absolute in the file.
        package var range: Range<Int> = 0..<0
        /// Its place in the record's `events` array, from 0.
        package var position = 0
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index: Int
    private let end: Int
    private let limits = JSONParser.Limits()

    /// Scans the record at `range` of `bytes`. Every value is checked to be well-formed JSON
    /// (valid UTF-8, no raw control byte in a string), so a record the scan accepts is one the
    /// decoder accepts too, and `info`, `turns` and every answer agree on what is undecodable.
    package init(bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
        self.bytes = bytes
        index = range.lowerBound
        end = range.upperBound
    }

    /// Replaces `found` with every event of the record in order; false when the record must be
    /// decoded the ordinary way (it is malformed, or shaped in a way the scan does not handle).
    ///
    /// With `names`, it also fills `members` with the bytes of the record's top-level members of
    /// those names (nil for one that is absent), in the order of `names`.
    package mutating func events(
        into found: inout [Event], capturing names: [StaticString] = [], members: inout [Range<Int>?]
    ) -> Bool {
        found.removeAll(keepingCapacity: true)
        members = Array(repeating: nil, count: names.count)
        var sawEvents = false
        guard consume(UInt8(ascii: "{")) else { return false }
        if consume(UInt8(ascii: "}")) { return false }
        repeat {
            guard let key = key() else { return false }
            if equals(key, "events") {
                guard !sawEvents, eventArray(into: &found) else { return false }
                sawEvents = true
            } else {
                skipWhitespace()
                let start = index
                guard skipValue(depth: 1) else { return false }
                if let slot = names.firstIndex(where: { equals(key, $0) }) {
                    guard members[slot] == nil else { return false }
                    members[slot] = start..<index
                }
            }
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")), sawEvents else { return false }
        skipWhitespace()
        return index == end
    }

    /// Every event of the record, with no members captured.
    package mutating func events(into found: inout [Event]) -> Bool {
        var none: [Range<Int>?] = []
        return events(into: &found, members: &none)
    }

    private mutating func eventArray(into found: inout [Event]) -> Bool {
        guard consume(UInt8(ascii: "[")) else { return false }
        if consume(UInt8(ascii: "]")) { return true }
        repeat {
            guard found.count < limits.maxElements, let event = event(position: found.count) else { return false }
            found.append(event)
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "]"))
    }

    private mutating func event(position: Int) -> Event? {
        skipWhitespace()
        var event = Event(position: position)
        let start = index
        guard consume(UInt8(ascii: "{")) else { return nil }
        var seen: (kind: Bool, state: Bool, registration: Bool, producer: Bool) = (false, false, false, false)
        if !consume(UInt8(ascii: "}")) {
            repeat {
                guard let key = key() else { return nil }
                // The members the index reads have one-letter names; every other is skipped.
                switch key.count == 1 ? bytes[key.lowerBound] : 0 {
                case UInt8(ascii: "e"):
                    guard !seen.kind, let kind = plainString() else { return nil }
                    event.kind = kind
                    seen.kind = true
                case UInt8(ascii: "s"):
                    guard !seen.state, let id = integer(), TraceFormat.countRange.contains(id) else { return nil }
                    event.state = NodeID(id)
                    seen.state = true
                case UInt8(ascii: "r"):
                    guard !seen.registration, let id = integer(), TraceFormat.countRange.contains(id) else {
                        return nil
                    }
                    event.registration = NodeID(id)
                    seen.registration = true
                case UInt8(ascii: "p"):
                    guard !seen.producer, let id = integer(), TraceFormat.countRange.contains(id) else { return nil }
                    event.producer = NodeID(id)
                    seen.producer = true
                default:
                    guard skipValue(depth: 3) else { return nil }
                }
            } while consume(UInt8(ascii: ","))
            guard consume(UInt8(ascii: "}")) else { return nil }
        }
        // An event about no state or registration is rare (a dropped turn, a diagnostic) and no
        // subject's index would ever decode it, so the decoder checks its record now.
        guard seen.kind, seen.state || seen.registration else { return nil }
        event.range = start..<index
        return event
    }

    // MARK: Tokens

    /// A member name followed by its colon; nil for an escaped name (the decoder reads those).
    @inline(__always)
    private mutating func key() -> Range<Int>? {
        guard let name = plainString() else { return nil }
        return consume(UInt8(ascii: ":")) ? name : nil
    }

    /// A string without escapes, its contents' range; nil for anything else.
    @inline(__always)
    private mutating func plainString() -> Range<Int>? {
        string(acceptingEscapes: false)
    }

    /// A whole number in the range the decoder accepts for ids; nil for a fraction, an exponent
    /// or too many digits.
    private mutating func integer() -> Int? {
        skipWhitespace()
        var position = index
        defer { index = position }
        var negative = false
        if position < end, bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        let first = position
        var value = 0
        while position < end {
            let digit = bytes[position] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value &* 10 &+ Int(digit)
            position += 1
            if position - first > 15 { return nil }
        }
        guard position > first else { return nil }
        if position < end {
            let next = bytes[position]
            if next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { return nil }
        }
        return negative ? -value : value
    }

    /// Skips one JSON value, checking it is well formed; false when it is not, or when it passes
    /// the parser's limits.
    private mutating func skipValue(depth: Int) -> Bool {
        skipWhitespace()
        guard index < end, depth <= limits.maxDepth else { return false }
        switch bytes[index] {
        case UInt8(ascii: "\""): return skipString()
        case UInt8(ascii: "{"):
            index += 1
            if consume(UInt8(ascii: "}")) { return true }
            var members = 0
            repeat {
                members += 1
                guard members <= limits.maxElements, skipString(), consume(UInt8(ascii: ":")),
                    skipValue(depth: depth + 1)
                else { return false }
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            index += 1
            if consume(UInt8(ascii: "]")) { return true }
            var elements = 0
            repeat {
                elements += 1
                guard elements <= limits.maxElements, skipValue(depth: depth + 1) else { return false }
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "]"))
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return skipNumber()
        }
    }

    private mutating func skipString() -> Bool {
        guard let contents = string(acceptingEscapes: true) else { return false }
        return contents.count <= limits.maxStringBytes
    }

    /// A string's contents (between its quotes, escapes as written), the index after it; nil for
    /// anything that is not a string the decoder would read the same way, or one with an escape
    /// when `acceptingEscapes` is false.
    @inline(__always)
    private mutating func string(acceptingEscapes: Bool) -> Range<Int>? {
        skipWhitespace()
        guard index < end, bytes[index] == UInt8(ascii: "\"") else { return nil }
        index += 1
        let start = index
        // The plain run up to the closing quote or an escape, a word at a time: most strings of
        // a trace are names and kinds with neither.
        if let base = bytes.baseAddress {
            index = PlainRun.end(in: base, from: index, to: end, stoppingAtControls: true)
        }
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                // Escapes are ASCII, so the contents as written are checked whole.
                guard let base = bytes.baseAddress, WellFormedUTF8.check(base, from: start, to: index - 1) else {
                    return nil
                }
                return start..<(index - 1)
            }
            if byte < 0x20 { return nil }
            if byte == UInt8(ascii: "\\") {
                guard acceptingEscapes else { return nil }
                index += 1
                guard index < end else { return nil }
                switch bytes[index] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 1
                case UInt8(ascii: "u"):
                    // Escaped surrogates need pairing rules the decoder applies; leave them to it.
                    guard index + 4 < end, let unit = hexUnit(at: index + 1), !(0xD800...0xDFFF).contains(unit)
                    else { return nil }
                    index += 5
                default: return nil
                }
                continue
            }
            index += 1
        }
        return nil
    }

    private func hexUnit(at position: Int) -> Int? {
        var unit = 0
        for offset in 0..<4 {
            let byte = bytes[position + offset]
            let digit: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
            unit = unit * 16 + digit
        }
        return unit
    }

    /// A number in JSON's grammar, within the parser's digit limit.
    private mutating func skipNumber() -> Bool {
        let start = index
        if index < end, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard skipDigits(leadingZeroAllowed: false) else { return false }
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard skipDigits(leadingZeroAllowed: true) else { return false }
        }
        if index < end, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard skipDigits(leadingZeroAllowed: true) else { return false }
        }
        return index - start <= limits.maxNumberDigits
    }

    private mutating func skipDigits(leadingZeroAllowed: Bool) -> Bool {
        let start = index
        while index < end, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        guard index > start else { return false }
        // JSON allows no leading zero in an integer part ("01"); the decoder rejects it, so the
        // scan hands such a record to the decoder.
        return leadingZeroAllowed || bytes[start] != UInt8(ascii: "0") || index - start == 1
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= end else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    @inline(__always)
    private mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < end, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        // Records as written have no whitespace between tokens: one test, and no loop, then.
        guard index < end, bytes[index] <= UInt8(ascii: " ") else { return }
        while index < end {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }

    private func equals(_ range: Range<Int>, _ word: StaticString) -> Bool {
        guard range.count == word.utf8CodeUnitCount else { return false }
        for offset in 0..<range.count where bytes[range.lowerBound + offset] != word.utf8Start[offset] {
            return false
        }
        return true
    }
}
