/// The rows of a `Report.streamedTable`: a sequence of batches of rows, given one at a time as
/// the work that finds them goes on, and last what follows the table (a note, or a message for
/// no rows). It is read once; the work runs in the command's own context, never the session's.
public final class TableRowStream: Sequence, IteratorProtocol, Equatable {
    /// One step of the stream.
    public enum Part: Equatable {
        /// The next rows, never empty.
        case rows([[Cell]])
        /// What follows the rows; the last part.
        case trailer([Report])
    }

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
    private var trailerGiven = false

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

    /// The next batch of rows, then the trailer once they are all given, then nil.
    public func next() -> Part? {
        if !isDone {
            while let batch = produce() {
                guard !batch.isEmpty else { continue }
                hadRows = true
                return .rows(batch)
            }
            isDone = true
        }
        guard !trailerGiven else { return nil }
        trailerGiven = true
        return .trailer(finish(hadRows))
    }

    /// Every row at once, then the trailer: the table as a non-streaming answer gives it.
    func materialized(columns: [String]) -> [Report] {
        var rows: [[Cell]] = []
        var trailer: [Report] = []
        for part in self {
            switch part {
            case .rows(let batch): rows += batch
            case .trailer(let reports): trailer = reports
            }
        }
        let table: [Report] = rows.isEmpty ? [] : [.table(columns: columns, rows: rows)]
        return (title.map { title in table.isEmpty ? [] : [.section(title, table)] } ?? table) + trailer
    }

    /// A stream of this one's rows whose trailer ends with `more()`, asked once the rows have
    /// ended: what an answer warns of is known only after its rows are found. Made before this
    /// stream is read.
    func followed(by more: @escaping () -> [Report]) -> TableRowStream {
        let finish = self.finish
        return TableRowStream(
            title: title, minimumWidths: minimumWidths, produce: produce, finish: { finish($0) + more() })
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
