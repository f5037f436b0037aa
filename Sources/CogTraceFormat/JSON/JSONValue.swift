/// A JSON value with object keys kept in order, so records serialize byte for byte the same way
/// every time (the trace's determinism rests on this).
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A whole number, written without a fraction.
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Members in the order they were written.
    case object([(String, JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b || (a.isNaN && b.isNaN)
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Double(a) == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The member named `key` of an object; nil for anything else.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// The value as a string, when it is one.
    package var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The value as a whole number, when it is one.
    package var intValue: Int? {
        switch self {
        case .int(let number): number
        case .double(let number) where number.rounded() == number && abs(number) < 9e15: Int(number)
        default: nil
        }
    }

    /// The value as a number, when it is one.
    package var doubleValue: Double? {
        switch self {
        case .int(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }

    /// The value as a Boolean, when it is one.
    package var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The elements, when the value is an array.
    package var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members, when the value is an object.
    package var objectValue: [(String, JSONValue)]? {
        if case .object(let members) = self { return members }
        return nil
    }
}

extension JSONValue {
    /// The value as compact JSON text on one line.
    package var jsonText: String {
        var bytes = ByteBuffer()
        write(to: &bytes)
        return bytes.text
    }

    /// Appends the value as compact JSON text to `output`.
    package func write(to output: inout String) {
        output += jsonText
    }

    /// Appends the value as compact JSON text to `output`, as UTF-8.
    package func write(to output: inout [UInt8]) {
        var bytes = ByteBuffer()
        write(to: &bytes)
        bytes.withUnsafeBytes { output.append(contentsOf: $0) }
    }

    /// Appends the value as compact JSON text to `output`, as UTF-8: how traces are written,
    /// since appending bytes costs a fraction of appending to a `String` piece by piece.
    package func write(to output: inout ByteBuffer) {
        switch self {
        case .null: Self.append("null", to: &output)
        case .bool(let flag): Self.append(flag ? "true" : "false", to: &output)
        case .int(let number): output.appendDecimal(number)
        case .double(let number):
            if !number.isFinite {
                Self.append("null", to: &output)
            } else if number.rounded() == number && abs(number) < 1e15 {
                output.appendDecimal(Int(number))
            } else {
                output.append(contentsOf: "\(number)".utf8)
            }
        case .string(let text): JSONValue.writeString(text, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.0, to: &output)
                output.append(UInt8(ascii: ":"))
                member.1.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Writes `text` as a JSON string: quotes, backslashes and every control character escaped,
    /// so a record stays on one line whatever a value contains.
    static func writeString(_ text: String, to output: inout ByteBuffer) {
        output.append(UInt8(ascii: "\""))
        writeEscaped(text, to: &output)
        output.append(UInt8(ascii: "\""))
    }

    /// Writes what goes between a JSON string's quotes for `text`, escaped as `writeString`
    /// escapes it. Escaping goes scalar by scalar, so texts escaped one after another spell what
    /// their concatenation escaped whole would: a writer may build a string from pieces.
    static func writeEscaped(_ text: String, to output: inout ByteBuffer) {
        // Most text needs no escape: one scan of its bytes, then one copy.
        var contiguous = text
        let isPlain = contiguous.withUTF8 { bytes in
            guard Self.isPlain(bytes) else { return false }
            output.append(bytes)
            return true
        }
        guard !isPlain else { return }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": append("\\\"", to: &output)
            case "\\": append("\\\\", to: &output)
            case "\n": append("\\n", to: &output)
            case "\r": append("\\r", to: &output)
            case "\t": append("\\t", to: &output)
            case _
            where scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                output.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default:
                UTF8.encode(scalar) { output.append($0) }
            }
        }
    }

    /// Whether `bytes` are printable ASCII with no quote or backslash, so a JSON string holds
    /// them as they are. Eight bytes are tested at a time: a word has a byte below 0x20, or one
    /// equal to a given byte, exactly when the usual borrow tricks leave a high bit set in it.
    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress else { return true }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        // Non-ASCII (high bit), control characters (below 0x20), DEL, quote and backslash.
        func isPlainWord(_ word: UInt64) -> Bool {
            !(word & highs != 0 || (word &- ones &* 0x20) & ~word & highs != 0 || hasZeroByte(word ^ (ones &* 0x7F))
                || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C)))
        }
        let count = bytes.count
        guard count >= 8 else {
            // A short string, padded with a plain byte ("a") to one word.
            var word: UInt64 = ones &* 0x61
            withUnsafeMutableBytes(of: &word) { padded in
                padded.baseAddress?.copyMemory(from: start, byteCount: count)
            }
            return isPlainWord(word)
        }
        var offset = 0
        while offset + 8 <= count {
            guard isPlainWord(UnsafeRawPointer(start + offset).loadUnaligned(as: UInt64.self)) else { return false }
            offset += 8
        }
        // The last bytes, as the word that ends the string (overlapping one already tested).
        return offset == count || isPlainWord(UnsafeRawPointer(start + count - 8).loadUnaligned(as: UInt64.self))
    }

    private static func append(_ literal: StaticString, to output: inout ByteBuffer) {
        output.append(literal)
    }
}
