/// A failure to parse JSON text: where (byte column, from 1) and what was expected.
package struct JSONParseError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The 1-based byte column in the parsed text.
    package let column: Int
    /// What went wrong, lowercase, naming what would have been accepted.
    package let message: String

    package var description: String { "column \(column): \(message)" }
}

/// A strict, bounded JSON parser over UTF-8 bytes. It never recurses deeper than `maxDepth`,
/// never reads past its input, and reports the first problem with its column, so no input can
/// crash or hang it.
package struct JSONParser {
    /// Limits that keep a hostile input from exhausting the stack or memory.
    package struct Limits: Sendable {
        /// How deeply arrays and objects may nest.
        package var maxDepth = 64
        /// The longest string, in bytes.
        package var maxStringBytes = 1 << 20
        /// The most digits a number may have.
        package var maxNumberDigits = 40
        /// The most elements an array, or members an object, may hold.
        package var maxElements = 1_000_000

        /// The defaults: depth 64, 1 MiB strings, 40-digit numbers, a million elements.
        package init() {}
    }

    private let bytes: [UInt8]
    private var index = 0
    private let limits: Limits

    /// Parses one JSON value that must fill `bytes` (surrounding white space allowed).
    package static func parse(
        _ bytes: some Collection<UInt8>, limits: Limits = Limits()
    ) throws(JSONParseError)
        -> JSONValue
    {
        var parser = JSONParser(bytes: Array(bytes), limits: limits)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else {
            throw parser.error("unexpected text after the value")
        }
        return value
    }

    /// Parses one JSON value from text.
    package static func parse(_ text: String, limits: Limits = Limits()) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), limits: limits)
    }

    private init(bytes: [UInt8], limits: Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    private func error(_ message: String) -> JSONParseError {
        JSONParseError(column: index + 1, message: message)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A
                || bytes[index] == 0x0D
        {
            index += 1
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of text; expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character; expected a value")
        }
    }

    private mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of text in '\(word)'") }
        let matches = word.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw error("unknown literal; expected '\(word)'") }
        index += count
        return value
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= limits.maxDepth else { throw error("nesting deeper than \(limits.maxDepth)") }
        index += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a member name in quotes")
            }
            guard members.count < limits.maxElements else {
                throw error("object with more than \(limits.maxElements) members")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after a member name")
            }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth)))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of text; expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            } else {
                throw error("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= limits.maxDepth else { throw error("nesting deeper than \(limits.maxDepth)") }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            guard elements.count < limits.maxElements else {
                throw error("array with more than \(limits.maxElements) elements")
            }
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of text; expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            } else {
                throw error("expected ',' or ']'")
            }
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits(_ parser: inout JSONParser) -> Int {
            let begin = parser.index
            while parser.index < parser.bytes.count,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index])
            {
                parser.index += 1
            }
            return parser.index - begin
        }
        guard digits(&self) > 0 else { throw error("expected digits in a number") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard digits(&self) > 0 else { throw error("expected digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits(&self) > 0 else { throw error("expected digits in an exponent") }
        }
        guard index - start <= limits.maxNumberDigits else {
            throw error("number longer than \(limits.maxNumberDigits) characters")
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let number = Int(text) { return .int(number) }
        guard let number = Double(text) else { throw error("number out of range") }
        return .double(number)
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        // Most strings are plain ASCII with no escapes: take them as one slice of bytes.
        var end = start
        while end < bytes.count, end - start <= limits.maxStringBytes {
            let byte = bytes[end]
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { break }
            if byte == UInt8(ascii: "\"") {
                index = end + 1
                return String(decoding: bytes[start..<end], as: UTF8.self)
            }
            end += 1
        }
        var scalars = String.UnicodeScalarView()
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            guard index - start <= limits.maxStringBytes else {
                throw error("string longer than \(limits.maxStringBytes) bytes")
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(scalars)
            }
            if byte == UInt8(ascii: "\\") {
                scalars.append(try parseEscape())
                continue
            }
            if byte < 0x20 { throw error("unescaped control character in a string") }
            scalars.append(try decodeUTF8Scalar())
        }
    }

    private mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar {
        index += 1
        guard index < bytes.count else { throw error("unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800...0xDBFF).contains(high) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else {
                    return "\u{FFFD}"
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { return "\u{FFFD}" }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
            }
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        default:
            index -= 1
            throw error("unknown escape; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u")
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("unterminated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("expected four hexadecimal digits after \\u")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Decodes one UTF-8 scalar of a string; bytes that are not well-formed UTF-8 (a stray
    /// continuation, a truncated sequence, an overlong form, a surrogate, past U+10FFFF) make
    /// the line invalid JSON, as RFC 8259 requires, rather than a silent U+FFFD.
    private mutating func decodeUTF8Scalar() throws(JSONParseError) -> Unicode.Scalar {
        let first = bytes[index]
        let length =
            first < 0x80 ? 1 : first >> 5 == 0b110 ? 2 : first >> 4 == 0b1110 ? 3 : first >> 3 == 0b11110 ? 4 : 0
        guard length > 0, index + length <= bytes.count else { throw error("invalid UTF-8 in a string") }
        var value = length == 1 ? UInt32(first) : UInt32(first) & (0xFF >> (length + 1))
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte >> 6 == 0b10 else { throw error("invalid UTF-8 in a string") }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        let shortest: UInt32 = length == 1 ? 0 : length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= shortest, let scalar = Unicode.Scalar(value) else { throw error("invalid UTF-8 in a string") }
        index += length
        return scalar
    }
}
