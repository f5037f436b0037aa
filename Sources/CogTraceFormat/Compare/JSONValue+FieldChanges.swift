/// One field that differs between two structured values, e.g. `.weather.temperatureF: 72 → 95`.
public struct FieldChange: Equatable, Sendable {
    /// Where the field sits, `.name`, `[2]` or `.a.b[0]`; empty for the whole value.
    public let path: String
    /// The field before; nil when it was not there.
    public let old: JSONValue?
    /// The field after; nil when it is gone.
    public let new: JSONValue?

    public init(path: String, old: JSONValue?, new: JSONValue?) {
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
        var current: JSONValue? = self
        var remaining = Substring(path)
        while !remaining.isEmpty, let value = current {
            if remaining.hasPrefix(".") {
                remaining = remaining.dropFirst()
                let name = remaining.prefix { $0 != "." && $0 != "[" }
                remaining = remaining.dropFirst(name.count)
                current = value[String(name)]
            } else if remaining.hasPrefix("["), let close = remaining.firstIndex(of: "]"),
                let index = Int(remaining[remaining.index(after: remaining.startIndex)..<close])
            {
                remaining = remaining[remaining.index(after: close)...]
                guard let elements = value.arrayValue, elements.indices.contains(index) else { return nil }
                current = elements[index]
            } else {
                return nil
            }
        }
        return current
    }
}
