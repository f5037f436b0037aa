import CogInspector
import CogTraceFormat

/// The change lists' lines, each distinct one stored once and named by its index: in a long
/// recording the same lines (`observers notified: …`, a gated recompute) recur turn after turn,
/// and a table of them is a fifth of the text they would take written out.
struct ViewerLines {
    private(set) var table: [String] = []
    private var indexOfLine: [String: Int] = [:]

    /// The index of `line`, added the first time it is seen.
    mutating func index(of line: String) -> Int {
        if let known = indexOfLine[line] { return known }
        indexOfLine[line] = table.count
        table.append(line)
        return table.count - 1
    }

    /// One group of a turn's change list as the page reads it: `[title, after the turn,
    /// [[line, slot or -1, field lines…], …]]`, every string an index into the table.
    mutating func encode(_ group: (title: String, isAfterTurn: Bool, entries: [ViewerChanges.Entry])) -> JSONValue {
        .array([
            .int(index(of: group.title)), .bool(group.isAfterTurn),
            .array(
                group.entries.map { entry in
                    .array(
                        [.int(index(of: entry.line)), .int(entry.slot ?? -1)]
                            + entry.fields.map { .int(index(of: $0)) })
                }),
        ])
    }
}
