import CogTraceFormat

/// A search pattern read once and tried against many texts (every label of a wide graph, every
/// turn name of a long recording): `*` matches any run of characters, and a pattern without
/// `*` matches anywhere in the text. Smart case, as common search tools do: a pattern with no
/// capital letter ignores case (`find nice` finds `weather.isNice`); one with a capital matches
/// case exactly.
struct TextMatcher {
    /// The pattern as written.
    let pattern: String
    private let ignoresCase: Bool
    private let folded: String
    private let wildcard: LabelPattern?
    /// The folded pattern's bytes when it is ASCII, for the byte search; nil otherwise.
    private let asciiNeedle: [UInt8]?

    init(_ pattern: String) {
        self.pattern = pattern
        ignoresCase = !pattern.contains { $0.isUppercase }
        folded = ignoresCase ? pattern.lowercased() : pattern
        wildcard = folded.contains("*") ? LabelPattern(folded) : nil
        asciiNeedle = folded.utf8.allSatisfy { $0 < 0x80 } ? Array(folded.utf8) : nil
    }

    /// Whether `text` matches the pattern.
    func matches(_ text: String) -> Bool {
        if let wildcard { return wildcard.matches(ignoresCase ? text.lowercased() : text) }
        if let asciiNeedle, let found = Self.asciiSearch(asciiNeedle, in: text, ignoringCase: ignoresCase) {
            return found
        }
        return (ignoresCase ? text.lowercased() : text).contains(folded)
    }

    /// Whether `needle` occurs in `text`, comparing bytes (ASCII letters folded to lower case
    /// when `ignoringCase`); nil when `text` is not ASCII, where only `String`'s comparison of
    /// characters is right.
    private static func asciiSearch(_ needle: [UInt8], in text: String, ignoringCase: Bool) -> Bool? {
        var text = text
        return text.withUTF8 { bytes -> Bool? in
            var isASCII = true
            for byte in bytes where byte >= 0x80 {
                isASCII = false
                break
            }
            guard isASCII else { return nil }
            guard !needle.isEmpty else { return true }
            guard bytes.count >= needle.count else { return false }
            for start in 0...(bytes.count - needle.count) {
                var offset = 0
                while offset < needle.count {
                    var byte = bytes[start + offset]
                    if ignoringCase, byte >= 0x41, byte <= 0x5A { byte |= 0x20 }
                    guard byte == needle[offset] else { break }
                    offset += 1
                }
                if offset == needle.count { return true }
            }
            return false
        }
    }
}
