import CogTraceFormat

/// Fills a `TraceDatabase`'s real tables from one source, a table at a time, with the rows
/// `TraceTableRows` builds.
struct TraceDatabaseLoader {
    let database: TraceDatabase
    let rows: TraceTableRows

    init(database: TraceDatabase, source: TraceDatabase.Source) {
        self.database = database
        rows = TraceTableRows(source: source)
    }

    /// Fills `table` from this source.
    func fill(_ table: String) throws(InspectorError) {
        guard let kinds = TraceTableRows.scannedTables[table] else {
            for values in rows.recordRows(in: table) { try database.insert(table, values) }
            return
        }
        var turns = TurnScanIterator(
            trace: rows.source.trace, kinds: kinds, decodes: true, decodesHeadings: table == "turns")
        while let result = turns.next() {
            let turn: ScannedTurn
            switch result {
            case .success(let scanned): turn = scanned
            case .failure(let error) where error == TraceFile.cancelled: throw .interrupted
            case .failure(let error): throw InspectorError("the trace is malformed: \(error)")
            }
            for row in TraceTableRows.rows(of: turn, in: table) {
                let values = try rows.values(of: row, in: table)
                if !values.isEmpty { try database.insert(table, values) }
            }
        }
    }
}
