/// How text output fits a line width: prose wraps at spaces, tables that are too wide wrap their
/// last column under itself or stack each row, and nothing is cut. Widths count characters; the
/// text given here is already escaped.
struct TextLayout {
    /// The widest a line may be; nil for no limit (output to a file or a pipe).
    let lineWidth: Int?

    /// The narrowest a wrapped last column may be before the table stacks its rows instead.
    static let narrowestColumn = 24

    /// `text` as lines of at most `width` characters after `indent` (each at least 10), broken at
    /// spaces, a word longer than a line split across lines. Continuation lines start with
    /// `hanging` instead of `indent`.
    func wrap(_ text: String, indent: String, hanging: String? = nil) -> [String] {
        guard let lineWidth, indent.count + text.count > lineWidth else { return [indent + text] }
        var lines: [String] = []
        var prefix = indent
        var line = ""
        func capacity() -> Int { max(lineWidth - prefix.count, 10) }
        func finishLine() {
            lines.append(prefix + line)
            prefix = hanging ?? indent
            line = ""
        }
        for piece in text.split(separator: " ") {
            var word = piece
            if !line.isEmpty {
                if line.count + 1 + word.count <= capacity() {
                    line += " " + word
                    continue
                }
                finishLine()
            }
            while word.count > capacity() {
                line = String(word.prefix(capacity()))
                word = word.dropFirst(capacity())
                finishLine()
            }
            line = String(word)
        }
        if !line.isEmpty || lines.isEmpty { lines.append(prefix + line) }
        return lines
    }

    /// A table of escaped cells under `columns`, aligned as columns when it fits the line width,
    /// its last column wrapped in place when only that is too long, and otherwise one block per
    /// row: the leading cells on a line, the last cell wrapped below them.
    func table(columns: [String], rows: [[String]], indent: String) -> (header: [String], body: [String]) {
        let widths = columns.indices.map { column in
            ([columns[column]] + rows.map { column < $0.count ? $0[column] : "" }).map(\.count).max() ?? 0
        }
        let lead = widths.dropLast().reduce(0) { $0 + $1 + 2 }
        let total = indent.count + lead + (widths.last ?? 0)
        guard let lineWidth, total > lineWidth else {
            return aligned(columns: columns, rows: rows, widths: widths, indent: indent, lastWidth: nil)
        }
        if lineWidth - indent.count - lead >= Self.narrowestColumn {
            return aligned(
                columns: columns, rows: rows, widths: widths, indent: indent, lastWidth: lineWidth - indent.count - lead
            )
        }
        return stacked(columns: columns, rows: rows, indent: indent)
    }

    private func aligned(
        columns: [String], rows: [[String]], widths: [Int], indent: String, lastWidth: Int?
    ) -> (
        header: [String], body: [String]
    ) {
        let lead = widths.dropLast().reduce(0) { $0 + $1 + 2 }
        func lines(_ values: [String]) -> [String] {
            let leading = values.enumerated().dropLast().map { index, value in
                value + String(repeating: " ", count: widths[index] - value.count + 2)
            }.joined()
            let last = values.last ?? ""
            guard let lastWidth else { return [trimmed(indent + leading + last)] }
            let layout = TextLayout(lineWidth: indent.count + lead + lastWidth)
            return layout.wrap(last, indent: indent + leading, hanging: indent + String(repeating: " ", count: lead))
                .map(trimmed)
        }
        var ruleWidths = widths
        if let lastWidth, let last = ruleWidths.last { ruleWidths[ruleWidths.count - 1] = min(last, lastWidth) }
        let rule = indent + ruleWidths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return (lines(columns) + [rule], rows.flatMap(lines))
    }

    private func stacked(columns: [String], rows: [[String]], indent: String) -> (header: [String], body: [String]) {
        let header = wrap(columns.joined(separator: " / "), indent: indent)
        let rule =
            indent
            + String(repeating: "-", count: min(header.map(\.count).max() ?? 0, lineWidth ?? .max) - indent.count)
        let body = rows.flatMap { row in
            wrap(row.dropLast().joined(separator: "  "), indent: indent, hanging: indent + "  ")
                + wrap(row.last ?? "", indent: indent + "    ")
        }
        return (header + [rule], body)
    }

    private func trimmed(_ line: String) -> String {
        guard line.last == " " else { return line }
        var end = line.endIndex
        while end > line.startIndex, line[line.index(before: end)] == " " { end = line.index(before: end) }
        return String(line[..<end])
    }
}
