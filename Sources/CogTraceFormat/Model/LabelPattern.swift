import Foundation

/// A label pattern in which `*` stands for any run of characters, e.g. `auth.*` or
/// `weather.forecast[*]`: the recorder's redaction patterns and the inspector's searches.
public struct LabelPattern: Sendable, Hashable {
    /// The pattern as written.
    public let text: String
    private let parts: [Substring]

    /// A pattern; without a `*` it matches only the label equal to it.
    public init(_ text: String) {
        self.text = text
        parts = text.split(separator: "*", omittingEmptySubsequences: false)
    }

    /// Whether the pattern has a wildcard.
    public var hasWildcard: Bool { parts.count > 1 }

    /// Whether `label` matches the whole pattern.
    public func matches(_ label: String) -> Bool {
        guard hasWildcard else { return label == text }
        guard label.hasPrefix(parts[0]) else { return false }
        var rest = label.dropFirst(parts[0].count)
        for part in parts.dropFirst().dropLast() {
            guard let range = rest.range(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return rest.hasSuffix(parts.last ?? "")
    }
}
