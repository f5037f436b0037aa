/// The rows of a `Report.streamedTable`, given a batch at a time by the work that finds them,
/// and what follows the table once they are all given (a note, or a message for no rows).
public final class TableRowStream: Equatable {
    private let produce: () -> [[Cell]]?
    private let finish: (_ hadRows: Bool) -> [Report]
    /// How wide each column will be at least, when the producer can tell before the rows come
    /// (a turn column as wide as the last turn's number): batches then line up from the first.
    public let minimumWidths: [Int]?
    /// The title of the section the rows stand in (`turns` in `find`), or nil for a table of its
    /// own. A titled stream with no rows leaves no section, as a batch answer has none.
    public let title: String?
    private var hadRows = false
    private var isDone = false

    /// A stream whose `produce` gives each next batch (nil when there is no more), and whose
    /// `finish` says what follows the rows.
    package init(
        title: String? = nil, minimumWidths: [Int]? = nil, produce: @escaping () -> [[Cell]]?,
        finish: @escaping (_ hadRows: Bool) -> [Report]
    ) {
        self.title = title
        self.minimumWidths = minimumWidths
        self.produce = produce
        self.finish = finish
    }

    /// The next batch of rows; nil once they are all given.
    public func nextBatch() -> [[Cell]]? {
        guard !isDone else { return nil }
        while let batch = produce() {
            guard !batch.isEmpty else { continue }
            hadRows = true
            return batch
        }
        isDone = true
        return nil
    }

    /// What follows the rows, once `nextBatch` has returned nil.
    public var trailer: [Report] { finish(hadRows) }

    /// Every row at once, then the trailer: the table as a non-streaming answer gives it.
    func materialized(columns: [String]) -> [Report] {
        var rows: [[Cell]] = []
        while let batch = nextBatch() { rows += batch }
        let table: [Report] = rows.isEmpty ? [] : [.table(columns: columns, rows: rows)]
        return (title.map { title in table.isEmpty ? [] : [.section(title, table)] } ?? table) + trailer
    }

    public static func == (lhs: TableRowStream, rhs: TableRowStream) -> Bool { lhs === rhs }
}

extension Report {
    /// `reports` with every streamed table read to its end: a table and its trailer.
    static func materialized(_ reports: [Report]) -> [Report] {
        reports.flatMap { report -> [Report] in
            switch report {
            case .streamedTable(let columns, let rows): rows.materialized(columns: columns)
            case .section(let title, let parts): [.section(title, materialized(parts))]
            default: [report]
            }
        }
    }
}
