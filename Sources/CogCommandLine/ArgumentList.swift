/// The words of a command line, consumed front to back: the one parser the package's tools share
/// for options that take values.
public struct ArgumentList: Sendable {
    private var remaining: ArraySlice<String>

    /// The words after the program's name.
    public init(_ arguments: [String]) {
        remaining = arguments[...]
    }

    /// Whether every word has been consumed.
    public var isEmpty: Bool { remaining.isEmpty }

    /// The next word, consumed.
    public mutating func next() -> String? {
        remaining.popFirst()
    }

    /// The value that must follow `option`, consumed.
    /// - Throws: `UsageError` naming `option` and what it takes (`expected`, e.g. "a file path").
    public mutating func value(after option: String, expected: String) throws(UsageError) -> String {
        guard let value = remaining.popFirst() else { throw UsageError("\(option) needs \(expected)") }
        return value
    }

    /// The positive whole number that must follow `option`, consumed.
    public mutating func positiveCount(after option: String) throws(UsageError) -> Int {
        let text = try value(after: option, expected: "a positive whole number")
        guard let count = Int(text), count > 0 else {
            throw UsageError("\(option) needs a positive whole number, not '\(text)'")
        }
        return count
    }

    /// The comma-separated words that must follow `option`, consumed; each must be one of
    /// `allowed` when that is given.
    public mutating func list(
        after option: String, example: String, allowed: [String]? = nil
    ) throws(UsageError)
        -> [String]
    {
        let text = try value(after: option, expected: "a list such as \(example)")
        let words = text.split(separator: ",").map(String.init)
        guard !words.isEmpty else { throw UsageError("\(option) needs a list such as \(example)") }
        if let allowed, let unknown = words.first(where: { !allowed.contains($0) }) {
            throw UsageError("unknown value '\(unknown)' for \(option); expected \(allowed.joined(separator: ", "))")
        }
        return words
    }
}
