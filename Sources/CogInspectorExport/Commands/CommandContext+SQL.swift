import CogInspector
import CogTraceFormat
import CogTraceStore
import Foundation

extension CommandContext {
    /// `sql QUERY`: the rows of a read-only query over the recording's tables. At a prompt that
    /// streams (`streamsTables`) the rows come a batch at a time into the pager; read whole, all
    /// at once.
    func query(_ query: String) throws(InspectorError) -> [Report] {
        guard !query.isEmpty else {
            throw InspectorError("sql needs a query, e.g. 'sql SELECT * FROM turns LIMIT 5'")
        }
        // SQLite calls the check every 10,000 instructions: a query that runs a while shows it
        // (no fraction: SQLite cannot say how far it has got).
        let interruptRequested = interruptRequested
        let progress = progress
        var instructions = 0
        let cursor = try tables().open(query) {
            instructions += 10_000
            progress?(TraceProgress(task: "running the query", completed: instructions, total: 0))
            return interruptRequested()
        }
        // With one trace every row's `trace` is the same path: a `SELECT *` does not show it,
        // a query that names the column does.
        let namesTrace = query.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "_") }.contains("trace")
        let hidden = companions.isEmpty && !namesTrace ? cursor.columns.lastIndex(of: "trace") : nil
        let columns = cursor.columns.enumerated().filter { $0.offset != hidden }.map(\.element)
        func shown(_ rows: [[Cell]]) -> [[Cell]] {
            guard let hidden else { return rows }
            return rows.map { row in row.enumerated().filter { $0.offset != hidden }.map(\.element) }
        }
        // The first rows are read now, so a query that fails at once fails as a command.
        let first = try cursor.next(atMost: streamsTables ? 256 : .max) ?? []
        guard !first.isEmpty else { return [.message("no rows")] }
        guard streamsTables else { return [.table(columns: columns, rows: shown(first))] }
        var pending: [[Cell]]? = shown(first)
        var failure: InspectorError?
        let stream = TableRowStream(
            produce: {
                if let rows = pending {
                    pending = nil
                    return rows
                }
                do throws(InspectorError) {
                    return try cursor.next(atMost: 4_096).map(shown)
                } catch {
                    failure = error
                    return nil
                }
            },
            finish: { _ in
                guard let failure else { return [] }
                return [
                    .warning(
                        failure.kind == .interrupted
                            ? "stopped by Ctrl-C: the query has more rows than those above"
                            : "the query stopped: \(failure.message)")
                ]
            })
        return [.streamedTable(columns: columns, rows: stream)]
    }

    /// The SQLite tables, made on first use; each is filled when a query first reads it. They
    /// are made again once the trace has grown (`SQLTableCache`).
    func tables() throws(InspectorError) -> TraceDatabase {
        try SQLTableCache.tables(of: store) { () throws(InspectorError) in
            try TraceDatabase(sources: [databaseSource], fillsEveryTable: false)
        }
    }

    /// `export sqlite --append FILE`: this trace and its companions added to a database an
    /// earlier `export sqlite` wrote, all or nothing.
    func appendTables(to path: String, force: Bool) throws(InspectorError) -> [Report] {
        guard !force else {
            throw InspectorError("--append adds to '\(path)' and --force would replace it; give one of them")
        }
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw InspectorError(
                "'\(path)' is not a database to add to; without --append, export sqlite writes a new one",
                kind: .output)
        }
        let sources = ([self] + companions).map(\.databaseSource)
        _ = try TraceDatabase(appending: sources, to: path)
        let what = sources.count == 1 ? "the sql tables of \(source)" : "the sql tables of \(sources.count) traces"
        return [.message("added \(what) to \(path)")]
    }

    /// This recording as a database source, named by where it came from.
    /// Its names come from the store, which the tables may outlive (they are kept between
    /// commands): a name asked for after the trace was closed is the bare `#id`.
    var databaseSource: TraceDatabase.Source {
        TraceDatabase.Source(
            name: source, trace: trace, label: { [weak store] id in store?.label(id) ?? "#\(id)" },
            describe: { [weak store] event in
                guard let store else { return "" }
                return CommandContext.describe(event, in: store.trace, name: store.label)
            })
    }
}
