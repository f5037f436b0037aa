package import CogTraceFormat
import Foundation

/// A command's words after its name: positional arguments and `--flag value` options.
package struct CommandArguments {
    package private(set) var positional: [String] = []
    package private(set) var options: [String: String] = [:]
    /// The value-less options given, e.g. `--force`.
    package private(set) var switches: Set<String> = []
    package let command: String
    /// The line after the command's name, as typed (for commands that read an expression).
    package let text: String

    /// Splits `words`, taking the value after each flag in `valueFlags`.
    init(
        _ words: [String], command: String, valueFlags: Set<String> = [], switches allowedSwitches: Set<String> = [],
        text: String = ""
    ) throws(InspectorError) {
        self.command = command
        self.text = text
        var index = 0
        while index < words.count {
            let word = words[index]
            if allowedSwitches.contains(word) {
                switches.insert(word)
                index += 1
            } else if word.hasPrefix("--") {
                guard valueFlags.contains(word) else {
                    let known = valueFlags.union(allowedSwitches).sorted().joined(separator: ", ")
                    throw InspectorError(
                        "\(command) has no option '\(word)'" + (known.isEmpty ? "" : "; expected \(known)"))
                }
                guard index + 1 < words.count else { throw InspectorError("\(word) needs a value") }
                options[word] = words[index + 1]
                index += 2
            } else {
                positional.append(word)
                index += 1
            }
        }
    }

    /// The one required positional argument.
    package func single(_ name: String) throws(InspectorError) -> String {
        guard positional.count == 1 else {
            throw InspectorError("\(command) needs exactly one \(name); see 'help \(command)'")
        }
        return positional[0]
    }

    /// At most one positional argument.
    package func optional(_ name: String) throws(InspectorError) -> String? {
        guard positional.count <= 1 else {
            throw InspectorError("\(command) takes at most one \(name); see 'help \(command)'")
        }
        return positional.first
    }

    /// A whole number argument.
    package static func number(_ text: String, _ what: String) throws(InspectorError) -> Int {
        guard let number = Int(text) else { throw InspectorError("\(what) must be a whole number, not '\(text)'") }
        return number
    }

    /// A turn number.
    package static func turn(_ text: String) throws(InspectorError) -> TurnNumber {
        TurnNumber(try number(text, "a turn"))
    }

    /// A turn range `A..B`, `A..` or `..B`, or one turn `N`.
    package static func range(_ text: String) throws(InspectorError) -> ClosedRange<TurnNumber> {
        if let separator = text.range(of: "..") {
            let lower = text[..<separator.lowerBound]
            let upper = text[separator.upperBound...]
            let low = lower.isEmpty ? Int.min : try number(String(lower), "a range's start")
            let high = upper.isEmpty ? Int.max : try number(String(upper), "a range's end")
            guard low <= high else { throw InspectorError("range '\(text)' ends before it starts") }
            return TurnNumber(low)...TurnNumber(high)
        }
        let turn = try turn(text)
        return turn...turn
    }
}

/// The line up to a `#` that starts a word outside quotes: scripts and the prompt take trailing
/// `# comments` (`why counter.doubled   # why`), while a `#` inside a word or a quoted string
/// stays (`sql SELECT '#'`).
func withoutComment(_ line: String) -> String {
    var quote: Character?
    var previous: Character = " "
    var escaping = false
    for index in line.indices {
        let character = line[index]
        defer { previous = character }
        if escaping {
            escaping = false
        } else if character == "\\", quote == "\"" {
            escaping = true
        } else if let open = quote {
            if character == open { quote = nil }
        } else if character == "\"" || character == "'" {
            quote = character
        } else if character == "#", previous.isWhitespace {
            return String(line[..<index])
        }
    }
    return line
}

/// Splits a command line into words the way a shell does, for every command alike: single
/// quotes keep everything literally, double quotes group words and take `\` escapes, and a `\`
/// outside quotes escapes the next character (`find heat\ advisory`).
func tokenize(_ line: String) throws(InspectorError) -> [String] {
    var words: [String] = []
    var current = ""
    var quote: Character?
    var hasWord = false
    var escaping = false
    for character in line {
        if escaping {
            current.append(character)
            escaping = false
        } else if quote == "'" {
            if character == "'" { quote = nil } else { current.append(character) }
        } else if character == "\\" {
            escaping = true
            hasWord = true
        } else if quote == "\"" {
            if character == "\"" { quote = nil } else { current.append(character) }
        } else if character == "\"" || character == "'" {
            quote = character
            hasWord = true
        } else if character.isWhitespace {
            if hasWord || !current.isEmpty { words.append(current) }
            current = ""
            hasWord = false
        } else {
            current.append(character)
        }
    }
    if let quote { throw InspectorError("unterminated \(quote) quote in '\(line)'") }
    guard !escaping else { throw InspectorError("a '\\' ends '\(line)'; escape a character after it") }
    if hasWord || !current.isEmpty { words.append(current) }
    return words
}

extension String {
    /// The text without leading and trailing spaces.
    package var trimmed: String { String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()) }

    /// The text without one pair of surrounding quotes, single or double.
    package var unquoted: String {
        for quote in ["'", "\""] where count >= 2 && hasPrefix(quote) && hasSuffix(quote) {
            return String(dropFirst().dropLast())
        }
        return self
    }
}
