import Foundation

/// One line of Swift Testing's console output, as far as recording needs it: an issue recorded
/// by a test, a test's end, or a detail line under an issue. Swift Testing has no public way to
/// observe another test's issues without a trait on it, so a suite recorded by `COG_TRACE`
/// learns of failures from the lines the runner prints (the runner's own event stream, as text).
nonisolated enum SwiftTestingConsoleLine: Equatable, Sendable {
    /// `Test NAME recorded an issue [with N arguments …] at FILE:LINE:COLUMN: MESSAGE`.
    case issue(test: String, file: String?, line: Int?, message: String)
    /// `Test NAME [with N test cases] failed after …` or `… passed after …` (or `skipped`).
    case ended(test: String, failed: Bool)
    /// `↳ TEXT`: a comment or detail printed under the line before.
    case detail(String)

    /// Reads `raw` (colour escapes allowed) knowing the console names of the tests that record;
    /// nil for every other line (starts, suites, known issues, warnings, summaries).
    static func parse(_ raw: some StringProtocol, testNames: [String]) -> SwiftTestingConsoleLine? {
        let names = Set(testNames)
        return parse(raw) { names.contains(String($0)) }
    }

    /// Reads `raw`, asking `isTestName` whether a run of words is the console name of a test that
    /// records. A name may hold spaces (a display name), so every word boundary is tried, the
    /// longest name first.
    static func parse(_ raw: some StringProtocol, isTestName: (Substring) -> Bool) -> SwiftTestingConsoleLine? {
        let text = stripEscapes(raw)
        // Every line starts with one symbol (✘, ✔, ↳, …) and a space; which symbol depends on the
        // platform and terminal, so only the words after it are read.
        guard let space = text.firstIndex(of: " ") else { return nil }
        let symbol = text[..<space]
        let rest = text[text.index(after: space)...]
        if symbol == "↳" { return .detail(String(rest)) }
        guard rest.hasPrefix("Test ") else { return nil }
        let body = rest.dropFirst("Test ".count)
        for boundary in body.indices.reversed() where body[boundary] == " " {
            let name = body[..<boundary]
            guard isTestName(name), let event = event(of: String(name), saying: body[body.index(after: boundary)...])
            else { continue }
            return event
        }
        return nil
    }

    private static func event(of test: String, saying tail: Substring) -> SwiftTestingConsoleLine? {
        if tail.hasPrefix("recorded an issue") {
            let (file, line, message) = location(in: tail.dropFirst("recorded an issue".count))
            return .issue(test: test, file: file, line: line, message: message)
        }
        if tail.hasPrefix("skipped") { return .ended(test: test, failed: false) }
        // `with 2 test cases failed after …` for a parameterized test.
        let words = tail.hasPrefix("with ") ? afterCaseCount(tail) : tail
        if words.hasPrefix("failed after") { return .ended(test: test, failed: true) }
        if words.hasPrefix("passed after") { return .ended(test: test, failed: false) }
        return nil
    }

    /// `with 2 test cases failed after …` → `failed after …`.
    private static func afterCaseCount(_ tail: Substring) -> Substring {
        guard let range = tail.range(of: " test cases ") ?? tail.range(of: " test case ") else { return tail }
        return tail[range.upperBound...]
    }

    /// The `at FILE:LINE:COLUMN: MESSAGE` part after `recorded an issue` (arguments may come
    /// first), or the whole remainder as the message when no location parses.
    private static func location(in tail: Substring) -> (file: String?, line: Int?, message: String) {
        var searchFrom = tail.startIndex
        while let at = tail[searchFrom...].range(of: " at ") {
            let candidate = tail[at.upperBound...]
            let parts = candidate.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            if parts.count == 4, !parts[0].isEmpty, !parts[0].contains(" "), let line = Int(parts[1]),
                Int(parts[2]) != nil, parts[3].hasPrefix(" ")
            {
                return (String(parts[0]), line, String(parts[3].dropFirst()))
            }
            searchFrom = at.upperBound
        }
        let message = tail.drop(while: { $0 == ":" || $0 == " " })
        return (nil, nil, String(message))
    }

    /// `raw` without ANSI escape sequences (`ESC [ … letter`).
    static func stripEscapes(_ raw: some StringProtocol) -> String {
        var result = ""
        result.reserveCapacity(raw.utf8.count)
        var inEscape = false
        var sawBracket = false
        for scalar in raw.unicodeScalars {
            if inEscape {
                if !sawBracket {
                    sawBracket = true
                    if scalar != "[" { inEscape = false }
                    continue
                }
                if (0x40...0x7E).contains(scalar.value) { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" {
                inEscape = true
                sawBracket = false
                continue
            }
            if scalar != "\r" { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}
