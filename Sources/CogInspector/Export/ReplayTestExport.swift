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
    /// Declarations whose written values have no structured form, with their value types.
    let skipped: [(declaration: String, valueType: String)]

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
            text += line.isEmpty ? "\n" : "        \(line)\n"
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

    /// Text for a `//` comment: one line, no control characters.
    static func comment(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
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
                    scalar.properties.generalCategory == .control
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
        return name
    }

    /// Whether `text` is a plain Swift identifier (ASCII letters, digits and `_`, not starting with a digit).
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
        }
    }
}
