/// The one escaping point between trace content and a terminal, and the text helpers the
/// exporters share.
public enum TerminalText {
    /// Makes text safe for a terminal: every control character (C0, DEL, C1) is shown as an escape
    /// (`\n`, `\t`, `\u{1B}`), so a recorded value can never move the cursor or set a title.
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where isControl(scalar):
                escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
    }

    /// Cuts `text` to `width` characters, ending with "…" when it was longer.
    package static func truncate(_ text: String, to width: Int) -> String {
        guard width > 1, text.count > width else { return text }
        return String(text.prefix(width - 1)) + "…"
    }

    /// `text` with each character that has a replacement in `replacements` replaced: the one loop
    /// behind every export format's string escaping.
    package static func replacingCharacters(in text: String, using replacements: [Character: String]) -> String {
        var escaped = ""
        for character in text {
            if let replacement = replacements[character] { escaped += replacement } else { escaped.append(character) }
        }
        return escaped
    }
}
