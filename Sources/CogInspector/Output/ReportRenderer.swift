import CogTraceFormat

/// Renders command results as text for a terminal or as one JSON document per command.
public struct ReportRenderer {
    /// How wide a value may be in text output.
    public var valueWidth: Int
    /// Whether text output may use ANSI styles (bold titles, underlined table headers).
    public var usesColor: Bool

    public init(valueWidth: Int = 60, usesColor: Bool = false) {
        self.valueWidth = valueWidth
        self.usesColor = usesColor
    }

    private func styled(_ text: String, _ code: String) -> String {
        usesColor ? "\u{1B}[\(code)m" + text + "\u{1B}[0m" : text
    }

    /// The result as text lines, every string escaped.
    public func text(_ result: CommandResult) -> String {
        result.report.map { render($0, indent: "") }.joined(separator: "\n")
    }

    private func render(_ report: Report, indent: String) -> String {
        switch report {
        case .message(let message):
            return indent + escapeControlCharacters(message)
        case .fields(let fields):
            let width = fields.map(\.0.count).max() ?? 0
            return fields.map { name, value in
                indent + name + ":" + String(repeating: " ", count: width - name.count + 1)
                    + escapeControlCharacters(truncate(value, to: valueWidth * 2))
            }.joined(separator: "\n")
        case .table(let columns, let rows):
            let cells = rows.map { row in
                row.enumerated().map { index, cell in
                    escapeControlCharacters(index == row.count - 1 ? cell : truncate(cell, to: valueWidth))
                }
            }
            let widths = columns.indices.map { column in
                ([columns[column]] + cells.map { column < $0.count ? $0[column] : "" }).map(\.count).max() ?? 0
            }
            func line(_ values: [String]) -> String {
                indent + values.enumerated().map { index, value in
                    index == values.count - 1 ? value : value + String(repeating: " ", count: widths[index] - value.count)
                }.joined(separator: "  ")
            }
            let rule = indent + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
            return ([styled(line(columns), "1"), rule] + cells.map(line)).joined(separator: "\n")
        case .lines(let lines):
            return lines.map { indent + escapeControlCharacters($0) }.joined(separator: "\n")
        case .document(let text):
            return text.hasSuffix("\n") ? String(text.dropLast()) : text
        case .section(let title, let parts):
            return ([indent + styled(escapeControlCharacters(title), "1")] + parts.map { render($0, indent: indent + "  ") })
                .joined(separator: "\n")
        }
    }

    /// The result as one JSON document: `{"command":…,"result":[…]}`.
    public func json(_ result: CommandResult) -> String {
        JSONValue.object([
            ("command", .string(result.command)), ("result", .array(result.report.map(jsonValue))),
        ]).jsonText
    }

    private func jsonValue(_ report: Report) -> JSONValue {
        switch report {
        case .message(let message):
            .object([("message", .string(message))])
        case .fields(let fields):
            .object(fields.map { ($0.0, .string($0.1)) })
        case .table(let columns, let rows):
            .object([("rows", .array(rows.map { row in
                .object(zip(columns, row).map { ($0, .string($1)) })
            }))])
        case .lines(let lines):
            .object([("lines", .array(lines.map(JSONValue.string)))])
        case .document(let text):
            .object([("document", .string(text))])
        case .section(let title, let parts):
            .object([("section", .string(title)), ("parts", .array(parts.map(jsonValue)))])
        }
    }
}
