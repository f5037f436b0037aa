/// One field that differs between two structured values, e.g. `.weather.temperatureF: 72 → 95`.
public struct FieldChange: Equatable, Sendable {
    /// Where the field sits, `.name`, `[2]` or `.a.b[0]`; empty for the whole value.
    public let path: String
    /// The field before; nil when it was not there.
    package let old: JSONValue?
    /// The field after; nil when it is gone.
    package let new: JSONValue?

    package init(path: String, old: JSONValue?, new: JSONValue?) {
        self.path = path
        self.old = old
        self.new = new
    }

    /// `path: old → new`, with `—` for a missing side.
    public var line: String {
        "\(path.isEmpty ? "value" : path): \(old?.jsonText ?? "—") → \(new?.jsonText ?? "—")"
    }
}

extension JSONValue {
    /// The leaf fields that differ between this value and `other`, depth first in this value's
    /// member order (then the other's new members); objects are matched by key and arrays by
    /// position, anything else is compared whole.
    public func fieldChanges(to other: JSONValue, at path: String = "") -> [FieldChange] {
        switch (self, other) {
        case (.object(let old), .object(let new)):
            var changes: [FieldChange] = []
            for (key, value) in old {
                let fieldPath = path + "." + key
                if let counterpart = other[key] {
                    changes += value.fieldChanges(to: counterpart, at: fieldPath)
                } else {
                    changes.append(FieldChange(path: fieldPath, old: value, new: nil))
                }
            }
            for (key, value) in new where self[key] == nil {
                changes.append(FieldChange(path: path + "." + key, old: nil, new: value))
            }
            return changes
        case (.array(let old), .array(let new)):
            var changes: [FieldChange] = []
            for index in 0..<max(old.count, new.count) {
                let fieldPath = path + "[\(index)]"
                switch (index < old.count ? old[index] : nil, index < new.count ? new[index] : nil) {
                case (let before?, let after?): changes += before.fieldChanges(to: after, at: fieldPath)
                case (let before, let after): changes.append(FieldChange(path: fieldPath, old: before, new: after))
                }
            }
            return changes
        default:
            return self == other ? [] : [FieldChange(path: path, old: self, new: other)]
        }
    }

    /// The member at a field path like `.weather.temperatureF` or `.readings[0]`; nil when the
    /// path leads nowhere.
    public func value(atPath path: String) -> JSONValue? {
        value(at: JSONPath(path))
    }

    /// The member `path` leads to, or nil when it leads nowhere (or is malformed).
    public func value(at path: JSONPath) -> JSONValue? {
        guard let components = path.components else { return nil }
        var current = self
        for component in components {
            switch component {
            case .key(let name):
                guard let member = current[name] else { return nil }
                current = member
            case .index(let index):
                guard let elements = current.arrayValue, elements.indices.contains(index) else { return nil }
                current = elements[index]
            }
        }
        return current
    }
}

/// A field path such as `.weather.temperatureF` or `.days[2].high`, read once into its steps so
/// looking it up in many values (bisect tries one per turn) does not parse it again.
public struct JSONPath: Equatable, Sendable {
    /// One step: an object member or an array element.
    public enum Component: Equatable, Sendable {
        case key(String)
        case index(Int)
    }

    /// The steps, or nil when the text is not a path.
    public let components: [Component]?

    /// The path written as `text`; empty text is the whole value.
    public init(_ text: String) {
        var steps: [Component] = []
        var remaining = Substring(text)
        while !remaining.isEmpty {
            if remaining.hasPrefix(".") {
                remaining = remaining.dropFirst()
                let name = remaining.prefix { $0 != "." && $0 != "[" }
                remaining = remaining.dropFirst(name.count)
                steps.append(.key(String(name)))
            } else if remaining.hasPrefix("["), let close = remaining.firstIndex(of: "]"),
                let index = Int(remaining[remaining.index(after: remaining.startIndex)..<close])
            {
                remaining = remaining[remaining.index(after: close)...]
                steps.append(.index(index))
            } else {
                components = nil
                return
            }
        }
        components = steps
    }
}

/// A piece of a recorded value's structured form (a field a diff found changed), as the public
/// API hands it out: its JSON text. The JSON tree itself stays inside the package.
public struct StructuredValue: Equatable, Sendable {
    package let json: JSONValue

    package init(_ json: JSONValue) {
        self.json = json
    }

    /// The piece as compact JSON text, e.g. `72` or `{"condition":"clear"}`.
    public var jsonText: String { json.jsonText }
}
