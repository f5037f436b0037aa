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

    /// A table of escaped cells under `columns`, aligned as columns when it fits the line width;
    /// when it does not, its widest column wraps within a narrower width while every other
    /// column keeps its place (a row's other cells stay on its first line, so a marker column is
    /// never alone on a line); only when even that leaves the widest column too narrow, one
    /// block per row: the leading cells on a line, the last cell wrapped below them.
    func table(columns: [String], rows: [[String]], indent: String) -> (header: [String], body: [String]) {
        let laid = table(columns: columns, rows: rows, indent: indent, atLeast: nil)
        return (laid.header, laid.body)
    }

    /// `table(columns:rows:indent:)` with each column at least as wide as `minimumWidths` says,
    /// and the widths it used: batches of a streamed table keep their columns in line.
    func table(
        columns: [String], rows: [[String]], indent: String, atLeast minimumWidths: [Int]?
    ) -> (header: [String], body: [String], widths: [Int]) {
        let widths = columns.indices.map { column in
            max(
                minimumWidths.map { column < $0.count ? $0[column] : 0 } ?? 0,
                ([columns[column]] + rows.map { column < $0.count ? $0[column] : "" }).map(\.count).max() ?? 0)
        }
        let total = indent.count + widths.reduce(0, +) + 2 * max(widths.count - 1, 0)
        func with(_ laid: (header: [String], body: [String])) -> (header: [String], body: [String], widths: [Int]) {
            (laid.header, laid.body, widths)
        }
        guard let lineWidth, total > lineWidth else {
            return with(aligned(columns: columns, rows: rows, widths: widths, indent: indent, wrapping: nil))
        }
        guard let widest = widths.indices.max(by: { widths[$0] < widths[$1] }) else {
            return with(stacked(columns: columns, rows: rows, indent: indent))
        }
        let room = lineWidth - (total - widths[widest])
        // The last column may be as narrow as a wrapped sentence reads; one in the middle needs
        // more, or its rows turn into towers.
        let narrowest = widest == widths.count - 1 ? Self.narrowestColumn : Self.narrowestColumn + 6
        guard room >= narrowest else { return with(stacked(columns: columns, rows: rows, indent: indent)) }
        return with(aligned(columns: columns, rows: rows, widths: widths, indent: indent, wrapping: (widest, room)))
    }

    private func aligned(
        columns: [String], rows: [[String]], widths: [Int], indent: String, wrapping: (column: Int, width: Int)?
    ) -> (
        header: [String], body: [String]
    ) {
        var shown = widths
        if let wrapping { shown[wrapping.column] = wrapping.width }
        func padded(_ value: String, _ column: Int) -> String {
            column == shown.count - 1
                ? value : value + String(repeating: " ", count: max(shown[column] - value.count, 0) + 2)
        }
        func lines(_ values: [String]) -> [String] {
            guard let wrapping, wrapping.column < values.count, values[wrapping.column].count > wrapping.width else {
                return [trimmed(indent + values.indices.map { padded(values[$0], $0) }.joined())]
            }
            let pieces = TextLayout(lineWidth: wrapping.width).wrap(values[wrapping.column], indent: "")
            let blank = { (column: Int) in String(repeating: " ", count: shown[column] + 2) }
            return pieces.enumerated().map { line, piece in
                let cells = values.indices.map { column -> String in
                    if column == wrapping.column { return padded(piece, column) }
                    if line == 0 { return padded(values[column], column) }
                    return column < wrapping.column ? blank(column) : ""
                }
                return trimmed(indent + cells.joined())
            }
        }
        let rule = indent + shown.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return (lines(columns) + [rule], rows.flatMap(lines))
    }

    private func stacked(columns: [String], rows: [[String]], indent: String) -> (header: [String], body: [String]) {
        let header = wrap(columns.joined(separator: " / "), indent: indent)
        let rule =
            indent
            + String(repeating: "-", count: min(header.map(\.count).max() ?? 0, lineWidth ?? .max) - indent.count)
        // A last column of markers (`turns`' cursor ◀) ends its row's first line, never a line
        // of its own below it.
        let marks = rows.allSatisfy { ($0.last?.count ?? 0) <= Self.markerWidth }
        let body = rows.flatMap { row -> [String] in
            let leading = row.dropLast().joined(separator: "  ")
            guard marks else {
                return wrap(leading, indent: indent, hanging: indent + "  ")
                    + wrap(row.last ?? "", indent: indent + "    ")
            }
            let mark = row.last ?? ""
            let room = lineWidth.map { $0 - (mark.isEmpty ? 0 : mark.count + 2) }
            var lines = TextLayout(lineWidth: room).wrap(leading, indent: indent, hanging: indent + "  ")
            if !mark.isEmpty, !lines.isEmpty { lines[0] += "  " + mark }
            return lines
        }
        return (header + [rule], body)
    }

    /// The widest a last column's cells may be to count as markers, kept on their row's line.
    static let markerWidth = 2

    private func trimmed(_ line: String) -> String {
        guard line.last == " " else { return line }
        var end = line.endIndex
        while end > line.startIndex, line[line.index(before: end)] == " " { end = line.index(before: end) }
        return String(line[..<end])
    }
}
