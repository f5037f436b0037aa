import CogTraceFormat

/// A structured value (an `Encodable` value's recorded JSON) as an indented tree of its fields,
/// one leaf per line: how `get` shows a value that has fields, so a list of structs reads as
/// structures rather than as one long debug string. Lines are plain text, escaped by the
/// renderer like every other line.
struct FieldTree {
    /// The value's tree lines, at most `limit` of them.
    let lines: [String]
    /// How many lines were left out past `limit`.
    let cut: Int
    /// `2 items` or `3 fields`: what the value holds at its top.
    let summary: String

    /// The most lines a tree shows before it is cut with a note.
    static let limit = 200

    /// The tree of `json` when it has fields (a non-empty object or array); nil for a scalar or
    /// an empty container, which read fine on one line.
    init?(_ json: JSONValue, limit: Int = FieldTree.limit) {
        switch json {
        case .array(let elements) where !elements.isEmpty:
            summary = elements.count == 1 ? "1 item" : "\(elements.count) items"
        case .object(let members) where !members.isEmpty:
            summary = members.count == 1 ? "1 field" : "\(members.count) fields"
        default:
            return nil
        }
        var builder = Builder(limit: limit)
        builder.add(children: json, depth: 0)
        lines = builder.lines
        cut = builder.cut
    }

    private struct Builder {
        let limit: Int
        var lines: [String] = []
        var cut = 0

        mutating func append(_ line: String) {
            if lines.count < limit { lines.append(line) } else { cut += 1 }
        }

        /// The members of a container, each on its own line at `depth`; names in one container
        /// are padded to one width so their values line up.
        mutating func add(children json: JSONValue, depth: Int) {
            let members: [(String, JSONValue)]
            switch json {
            case .array(let elements): members = elements.enumerated().map { ("[\($0.offset)]", $0.element) }
            case .object(let object): members = object
            default: return
            }
            let indent = String(repeating: "  ", count: depth)
            let width = members.map(\.0.count).max() ?? 0
            for (name, value) in members {
                // A cut tree still counts every line it would have had, without building them.
                if lines.count >= limit {
                    cut += Self.lineCount(of: value)
                    continue
                }
                switch value {
                case .array(let elements) where !elements.isEmpty:
                    append(indent + name + ":")
                    add(children: value, depth: depth + 1)
                case .object(let object) where !object.isEmpty:
                    append(indent + name + ":")
                    add(children: value, depth: depth + 1)
                default:
                    let padding = String(repeating: " ", count: width - name.count + 1)
                    append(indent + name + ":" + padding + value.jsonText)
                }
            }
        }

        /// How many lines `value` takes as a member: one, plus its members' when it has any.
        static func lineCount(of value: JSONValue) -> Int {
            switch value {
            case .array(let elements) where !elements.isEmpty: 1 + elements.map(lineCount).reduce(0, +)
            case .object(let members) where !members.isEmpty: 1 + members.map { lineCount(of: $0.1) }.reduce(0, +)
            default: 1
            }
        }
    }
}
