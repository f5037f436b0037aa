import CogInspector
import CogTraceFormat
import CogTraceStore

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
        try rows.forEachRow(in: table) { values throws(InspectorError) in try database.insert(table, values) }
    }
}

extension TraceTableRows {
    /// Gives `body` every row of `table` this source has, in the table's column order with the
    /// `trace` column last: the rows `export sqlite` inserts and `export tables` writes.
    func forEachRow(
        in table: String, _ body: ([SQLValue]) throws(InspectorError) -> Void
    ) throws(InspectorError) {
        guard let kinds = Self.scannedTables[table] else {
            for values in recordRows(in: table) { try body(values) }
            return
        }
        var turns = TurnScanIterator(
            trace: source.trace, kinds: kinds, decodes: true, decodesHeadings: table == "turns")
        while let result = turns.next() {
            let turn: ScannedTurn
            switch result {
            case .success(let scanned): turn = scanned
            case .failure(let error) where error == TraceFile.cancelled: throw .interrupted
            case .failure(let error): throw InspectorError.malformed(error)
            }
            for row in Self.rows(of: turn, in: table) {
                let values = try values(of: row, in: table)
                if !values.isEmpty { try body(values) }
            }
        }
    }
}
