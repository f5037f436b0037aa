public import CogCommandLine
import CogTraceFormat

/// Renders command results as text for a terminal or as one JSON document per command. This is
/// the one place where answers become bytes: every string from a trace is escaped here.
public struct ReportRenderer {
    /// The version of the `--json` document shapes (docs/inspector.md); it grows when a shape
    /// changes in a way a parser would notice.
    public static let jsonSchemaVersion = 3

    /// How wide a value may be in text output.
    public var valueWidth: Int
    /// Whether text output may use ANSI styles (bold titles, underlined table headers).
    public var usesColor: Bool
    /// The widest a text line may be (the terminal's width); nil for no limit. Prose wraps at
    /// spaces and wide tables wrap or stack, so nothing is cut to fit.
    public var lineWidth: Int?

    /// A renderer cutting recorded values at `valueWidth` characters, styled when `usesColor`,
    /// laying lines out for `lineWidth` columns when given.
    public init(valueWidth: Int = 60, usesColor: Bool = false, lineWidth: Int? = nil) {
        self.valueWidth = valueWidth
        self.usesColor = usesColor
        self.lineWidth = lineWidth.map { max($0, 20) }
    }

    private var layout: TextLayout { TextLayout(lineWidth: lineWidth) }

    /// An error line, `lead` then the escaped message, wrapped at the line width like every other
    /// line (continuations indented two spaces), so a terminal never breaks it mid-word.
    public func errorText(_ message: String, lead: String) -> String {
        layout.wrap(TerminalText.escape(message), indent: lead, hanging: "  ").joined(separator: "\n")
    }

    /// The result as text lines, every string escaped.
    public func text(_ result: CommandResult) -> String {
        Report.materialized(result.report).filter(\.isShownAsText).map { render($0, indent: "") }
            .joined(separator: "\n")
    }

    /// The result as one JSON document:
    /// `{"schemaVersion":1,"command":…,"result":[…]}`.
    public func json(_ result: CommandResult) -> String {
        JSONValue.object([
            ("schemaVersion", .int(Self.jsonSchemaVersion)), ("command", .string(result.command)),
            ("result", .array(Report.materialized(result.report).filter(\.isPrinted).map(ReportJSON.value))),
        ]).jsonText
    }

    /// One part of a result as the JSON its document holds, for a front end that writes a
    /// document in pieces.
    package func jsonText(of report: Report) -> String {
        ReportJSON.value(report).jsonText
    }

    /// The start of a table's JSON up to its first row: `{"columns":[…],"rows":[`.
    package func jsonTableOpening(columns: [String]) -> String {
        #"{"columns":"# + JSONValue.array(columns.map(JSONValue.string)).jsonText + #","rows":["#
    }

    /// One row of a table as the JSON its document holds.
    package func jsonText(ofRow row: [Cell], columns: [String]) -> String {
        JSONValue.object(zip(columns, row).map { ($0, ReportJSON.value($1)) }).jsonText
    }

    /// A failed command as its one JSON document, so a parser gets one document per command
    /// whatever happened:
    /// `{"schemaVersion":3,"command":"get","error":{"kind":"command","message":…,"exitCode":1}}`.
    public func json(error: InspectorError, command: String) -> String {
        let kind: String
        let exitCode: ExitStatus
        switch error.kind {
        case .command: (kind, exitCode) = ("command", .failure)
        case .expectation: (kind, exitCode) = ("expectation", .expectationFailed)
        case .interrupted: (kind, exitCode) = ("interrupted", .interrupted)
        case .output: (kind, exitCode) = ("output", .cannotCreateOutput)
        case .traceChanged: (kind, exitCode) = ("traceChanged", .cannotOpenInput)
        case .malformedTrace: (kind, exitCode) = ("malformedTrace", .malformedInput)
        }
        return Self.errorDocument(command: .string(command), kind: kind, message: error.message, exitCode: exitCode)
    }

    /// The one JSON document of a run in which no command ran (a trace refused at load, a usage
    /// error, an interrupt before the first command): `command` is null, and `kind` names the
    /// refusal (`usage`, `malformedInput`, `cannotOpenInput`, `interrupted`, …) as the exit
    /// status does.
    public func json(refusal message: String, exitCode: ExitStatus) -> String {
        Self.errorDocument(command: .null, kind: "\(exitCode)", message: message, exitCode: exitCode)
    }

    private static func errorDocument(
        command: JSONValue, kind: String, message: String, exitCode: ExitStatus
    )
        -> String
    {
        JSONValue.object([
            ("schemaVersion", .int(jsonSchemaVersion)), ("command", command),
            (
                "error",
                .object([
                    ("kind", .string(kind)), ("message", .string(message)), ("exitCode", .int(Int(exitCode.rawValue))),
                ])
            ),
        ]).jsonText
    }

    /// A cell as text: numbers in decimal, yes/no, `5+` for the time after turn 5, `-` for nothing.
    static func text(_ cell: Cell) -> String {
        switch cell {
        case .text(let text): text
        case .integer(let number): "\(number)"
        case .real(let number): "\(number)"
        case .bool(let flag): flag ? "yes" : "no"
        case .value(let value): value?.text ?? "nil"
        case .turn(let reference): "\(reference.turn)" + (reference.afterTurn ? "+" : "")
        case .state(let reference): reference.label
        case .json(let piece): piece.jsonText
        case .list(let cells): cells.isEmpty ? "-" : cells.map(text).joined(separator: ", ")
        case .cursorMark(let isCursor): isCursor ? "◀" : ""
        case .absent: "-"
        }
    }

    private func styled(_ text: String, _ code: String) -> String {
        usesColor ? "\u{1B}[\(code)m" + text + "\u{1B}[0m" : text
    }

    private func render(_ report: Report, indent: String) -> String {
        switch report {
        case .message(let message):
            return layout.wrap(TerminalText.escape(message), indent: indent).joined(separator: "\n")
        case .warning(let warning):
            return layout.wrap("warning: " + TerminalText.escape(warning), indent: indent, hanging: indent + "  ")
                .joined(separator: "\n")
        case .fields(let fields):
            let width = fields.map(\.name.count).max() ?? 0
            return fields.flatMap { field in
                if case .value(let value?) = field.value, let json = value.json, let tree = FieldTree(json) {
                    return fieldTree(tree, named: field.name, width: width, indent: indent)
                }
                let text = Self.text(field.value)
                let shown = field.value.isRecordedValue ? TerminalText.truncate(text, to: valueWidth * 2) : text
                return layout.wrap(
                    TerminalText.escape(shown),
                    indent: indent + field.name + ":" + String(repeating: " ", count: width - field.name.count + 1),
                    hanging: indent + String(repeating: " ", count: width + 2))
            }.joined(separator: "\n")
        case .table(let columns, let rows):
            return table(columns: columns, rows: rows, indent: indent)
        case .streamedTable(let columns, let rows):
            return rows.materialized(columns: columns).map { render($0, indent: indent) }.joined(separator: "\n")
        case .lines(let lines):
            // A line's own leading spaces (a tree's level) stay with every piece it wraps into.
            return lines.flatMap { line in
                let level = String(line.prefix { $0 == " " })
                return layout.wrap(
                    TerminalText.escape(String(line.dropFirst(level.count))), indent: indent + level,
                    hanging: indent + level + "  ")
            }
            .joined(separator: "\n")
        case .document(let text):
            return text.hasSuffix("\n") ? String(text.dropLast()) : text
        case .section(let title, let parts):
            return
                ([indent + styled(TerminalText.escape(title), "1")]
                + parts.map { render($0, indent: indent + "  ") })
                .joined(separator: "\n")
        case .causalChain(let chain):
            return chain.textRows.flatMap { row in
                layout.wrap(TerminalText.escape(row.text), indent: indent + row.lead, hanging: indent + row.hanging)
            }
            .joined(separator: "\n")
        case .events(let events):
            return render(.lines(events.map(\.description)), indent: indent)
        case .changes(let changes):
            return render(.lines(changes.map(\.description)), indent: indent)
        case .watchChange(let change):
            let value = TerminalText.truncate(Self.text(change.value), to: valueWidth)
            let previous = TerminalText.truncate(Self.text(change.previous), to: valueWidth)
            return render(
                .lines([
                    "turn \(Self.text(.turn(change.turn)))  \(change.name)  \(change.watch) = \(value) (was \(previous))"
                ]),
                indent: indent)
        case .playback, .verdict, .clearScreen:
            return ""
        }
    }

    /// A field whose value has fields of its own: its name with what it holds, then the tree
    /// below it, each line wrapped with its own level kept.
    private func fieldTree(_ tree: FieldTree, named name: String, width: Int, indent: String) -> [String] {
        let head = indent + name + ":" + String(repeating: " ", count: width - name.count + 1) + tree.summary
        let note =
            tree.cut > 0 ? ["… \(tree.cut) more lines; 'get STATE.FIELD' shows one part, '--description' all"] : []
        let body = render(.lines(tree.lines + note), indent: indent + "  ")
        return [head] + body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Recorded values in any column but the last are cut at `valueWidth`; names and prose stay
    /// whole, and the layout wraps them to the line width.
    private func table(columns: [String], rows: [[Cell]], indent: String) -> String {
        var widths: [Int]?
        return tableText(columns: columns, rows: rows, indent: indent, widths: &widths, withHeader: true)
    }

    /// One batch of a streamed table: its rows laid out with columns at least as wide as the
    /// batches before it (`widths` carries them from batch to batch, starting from the stream's
    /// hint), under the header for the first batch. A later, wider cell widens its column.
    /// `indent` sets the rows of a titled stream under their section's title.
    public func streamedTableText(
        columns: [String], rows: [[Cell]], widths: inout [Int]?, isFirstBatch: Bool, indent: String = ""
    ) -> String {
        tableText(columns: columns, rows: rows, indent: indent, widths: &widths, withHeader: isFirstBatch)
    }

    private func tableText(
        columns: [String], rows: [[Cell]], indent: String, widths: inout [Int]?, withHeader: Bool
    ) -> String {
        let cells = rows.map { row in
            row.enumerated().map { index, cell in
                let text = Self.text(cell)
                let cut = index != row.count - 1 && cell.isRecordedValue
                return TerminalText.escape(cut ? TerminalText.truncate(text, to: valueWidth) : text)
            }
        }
        let laid = layout.table(columns: columns, rows: cells, indent: indent, atLeast: widths)
        widths = laid.widths
        let header =
            withHeader ? laid.header.enumerated().map { $0 == laid.header.count - 1 ? $1 : styled($1, "1") } : []
        return (header + laid.body).joined(separator: "\n")
    }
}

extension Report {
    /// Whether renderers print anything for it: a playback plan is for the front end.
    package var isPrinted: Bool {
        if case .playback = self { return false }
        if case .clearScreen = self { return false }
        return true
    }

    /// Whether text output shows it (a verdict is for JSON and the exit status).
    var isShownAsText: Bool {
        if case .verdict = self { return false }
        return isPrinted
    }
}
