import CogTraceFormat
import CogTraceStore

/// `export test`: a Swift Testing file that replays a recording against today's code. The file
/// embeds the recording up to the last turn it checks, names the assembly that builds the app
/// (`CogReplayAssembly` in the client's test target), and lists the recorded inputs whose values
/// cannot be rebuilt, which the replay leaves to the app.
struct ReplayTestExport {
    /// What the file checks after each step: `derived` or `all`.
    let check: String
    /// The Swift name of the test function (and, capitalised, of its suite).
    let name: String
    /// The type in the client's test target that conforms to `CogReplayAssembly`.
    let assembly: String
    /// The turns checked.
    let turns: ClosedRange<TurnNumber>
    /// The recording's text through `turns.upperBound`.
    let recording: String
    /// The recording's title, for the file's comment.
    let title: String
    /// The values the recording holds as text only, which replay cannot rebuild.
    let textOnly: [TextOnlyInput]

    /// Sources whose recorded values are text only: the replay leaves them to the app.
    var skipped: [(declaration: String, valueType: String)] {
        var seen = Set<String>()
        return textOnly.filter { $0.kind != .asyncResult && seen.insert($0.declaration).inserted }
            .map { ($0.declaration, $0.valueType) }
    }

    /// Async results recorded as text only: no replay can answer their generations.
    var unanswerable: [TextOnlyInput] { textOnly.filter { $0.kind == .asyncResult } }

    /// The Swift source.
    func render() -> String {
        let suite = name.prefix(1).uppercased() + name.dropFirst() + "Replay"
        let delimiter = Self.rawDelimiter(for: recording)
        var lines = [
            "// A recording as a test, written by `coginspect` (export test) from '\(Self.comment(title))'.",
            "// It replays the recorded inputs against today's code and checks, after each of turns "
                + "\(turns.lowerBound)...\(turns.upperBound),",
            check == "all"
                ? "// everything `diff --trace` compares: values, edges, leases, async work and reactions."
                : "// the values of the derived states. `export test --check all` also checks edges and leases.",
            "// \(assembly) (a `CogReplayAssembly` in this test target) assembles the app; see",
            "// docs/recording-ci-failures.md, \"A recording becomes a test\".",
        ]
        if skipped.isEmpty {
            lines.append("// Every recorded input is rebuilt from its recorded value.")
        } else {
            lines.append(
                "// Not rebuilt (their values were recorded as text only; make the type Codable to include them):")
            for (declaration, valueType) in skipped {
                lines.append("//   \(Self.comment(declaration)): \(Self.comment(valueType))")
            }
        }
        if !unanswerable.isEmpty {
            lines.append(
                "// Cannot replay yet: these async results were recorded as text only, so no generation of them can "
                    + "be answered; make the types Codable and record again (the replay stops at its start, naming them):"
            )
            for input in unanswerable {
                lines.append(
                    "//   \(Self.comment(input.declaration)): \(Self.comment(input.valueType)), first at turn \(input.firstTurn)"
                )
            }
        }
        let skipping = skipped.map { "\"\(Self.escaped($0.declaration))\"" }.joined(separator: ", ")
        lines += [
            "",
            "import CogTesting",
            "import Testing",
            "",
            "@Suite struct \(suite) {",
            "    @Test func \(name)() async throws {",
            "        try await CogReplayTest(",
            "            name: \"\(name)\", recording: Self.recording, check: .\(check),",
            "            turns: \(turns.lowerBound)...\(turns.upperBound), skipping: [\(skipping)]",
            "        ).run(\(assembly).self)",
            "    }",
            "",
            "    /// The recording, through turn \(turns.upperBound).",
            "    static let recording = \(delimiter)\"\"\"",
        ]
        var text = lines.joined(separator: "\n") + "\n"
        // Indented like the closing delimiter, which the literal strips: the text is the file's.
        for line in recording.split(separator: "\n", omittingEmptySubsequences: false).dropLast(
            recording.hasSuffix("\n") ? 1 : 0)
        {
            text += line.isEmpty ? "\n" : "        \(Self.rawLine(line, delimiter: delimiter))\n"
        }
        text += "        \"\"\"\(delimiter)\n}\n"
        return text
    }

    /// Enough `#`s that no `"` or `\` in the text is followed by as many: the raw string then
    /// ends only where the file says and interpolates nothing.
    static func rawDelimiter(for text: String) -> String {
        var longest = 0
        var run = -1
        for character in text.unicodeScalars {
            if character == "#" {
                if run >= 0 { run += 1 }
            } else {
                run = character == "\"" || character == "\\" ? 0 : -1
            }
            longest = max(longest, run)
        }
        return String(repeating: "#", count: longest + 1)
    }

    /// A line of the recording as the raw literal holds it: every scalar as it is, but those a
    /// Swift file cannot carry as they are, spelled as the raw string's own escape
    /// (`\#u{D}`, with the literal's delimiter), so the string is the recording byte for byte.
    /// A CR would be read as a line break, a C1 control or a bidi override would change what the
    /// file shows (and may not be accepted); `rawDelimiter` made sure no escape of this
    /// delimiter occurs in the text itself.
    static func rawLine(_ line: Substring, delimiter: String) -> String {
        guard line.unicodeScalars.contains(where: needsEscape) else { return String(line) }
        var result = ""
        for scalar in line.unicodeScalars {
            if needsEscape(scalar) {
                result += "\\\(delimiter)u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether a scalar must be escaped in a Swift literal or comment: a control character
    /// other than a tab (C0, DEL, C1, so a CR too), an invisible format character (bidi
    /// overrides and isolates, zero widths, a byte-order mark) or a line or paragraph separator.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control: scalar != "\t"
        case .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// Text for a `//` comment: one line, with what `needsEscape` names shown as `?`.
    static func comment(_ text: String) -> String {
        String(text.unicodeScalars.map { needsEscape($0) || $0 == "\t" ? "?" : Character($0) })
    }

    /// Text for a Swift string literal.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            default:
                result +=
                    needsEscape(scalar) || scalar == "\t"
                    ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
            }
        }
        return result
    }

    /// A Swift identifier from `text`, in lower camel case: `heat-advisory` → `heatAdvisory`,
    /// `TipJarTests.theTotal` → `theTotal`; nil when nothing usable is left.
    static func identifier(from text: String) -> String? {
        let last = text.split(separator: ".").last.map(String.init) ?? text
        var words: [String] = []
        var current = ""
        for scalar in last.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        guard let first = words.first else { return nil }
        var name = first.prefix(1).lowercased() + first.dropFirst()
        for word in words.dropFirst() { name += word.prefix(1).uppercased() + word.dropFirst() }
        if let start = name.unicodeScalars.first, ("0"..."9").contains(start) { name = "replay" + name }
        if isKeyword(name) { name = "replay" + name.prefix(1).uppercased() + name.dropFirst() }
        return name
    }

    /// Whether `text` is a word Swift reserves, which a function or type cannot be named
    /// without backquotes (`class`, `if`, `self`, `init`, `default`, `protocol`, …).
    static func isKeyword(_ text: String) -> Bool { keywords.contains(text) }

    /// Swift's reserved words: declarations, statements, expressions and types.
    private static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "package", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
        "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil",
        "self", "Self", "super", "throws", "true", "try", "_", "some", "any", "macro", "actor", "async", "Type",
        "Protocol",
    ]

    /// Whether `text` is a plain Swift identifier (ASCII letters, digits and `_`, not starting with a digit).
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
        }
    }
}
