import CSQLite
import CogInspector

/// A read-only query stepped a batch of rows at a time: `sql` reads it whole, and at the prompt
/// hands each batch to the pager as it comes. While it is open, Ctrl-C (the `interrupt` check)
/// stops SQLite between instructions; closing it, or its end, takes the check away.
final class QueryCursor {
    /// The result's column names.
    let columns: [String]
    private let database: TraceDatabase
    private let statement: SQLiteStatement
    private let sql: String
    private var context: UnsafeMutableRawPointer?

    init(database: TraceDatabase, statement: SQLiteStatement, sql: String, interrupt: @escaping () -> Bool) {
        self.database = database
        self.statement = statement
        self.sql = sql
        let handle = statement.handle
        columns = (0..<sqlite3_column_count(handle)).map { String(cString: sqlite3_column_name(handle, $0)) }
        let check = InterruptCheck(interrupt)
        let context = Unmanaged.passRetained(check).toOpaque()
        self.context = context
        sqlite3_progress_handler(
            statement.connection.handle, 10_000,
            { context in
                guard let context else { return 0 }
                // SQLite hands back the pointer given to it, whose object outlives the call (retained by the cursor).
                return Unmanaged<InterruptCheck>.fromOpaque(context).takeUnretainedValue().isRequested() ? 1 : 0
            }, context)
    }

    deinit { close() }

    /// Up to `limit` more rows; nil once there are no more (and the cursor is closed).
    /// - Throws: `InspectorError.interrupted` on Ctrl-C, or what stopped SQLite or a virtual table.
    func next(atMost limit: Int) throws(InspectorError) -> [[Cell]]? {
        guard context != nil else { return nil }
        let handle = statement.handle
        var rows: [[Cell]] = []
        while rows.count < limit {
            let status = sqlite3_step(handle)
            if status == SQLITE_DONE {
                close()
                return rows.isEmpty ? nil : rows
            }
            if status == SQLITE_INTERRUPT {
                close()
                throw .interrupted
            }
            guard status == SQLITE_ROW else {
                close()
                throw database.takeVirtualTableFailure()
                    ?? InspectorError("sql: \(statement.connection.lastError) in '\(sql)'")
            }
            rows.append(
                (0..<Int32(columns.count)).map { column in
                    switch sqlite3_column_type(handle, column) {
                    case SQLITE_INTEGER: .integer(Int(sqlite3_column_int64(handle, column)))
                    case SQLITE_FLOAT: .real(sqlite3_column_double(handle, column))
                    case SQLITE_NULL: .absent
                    case SQLITE_BLOB: .text(Self.blobLiteral(handle, column))
                    default: sqlite3_column_text(handle, column).map { .text(String(cString: $0)) } ?? .absent
                    }
                })
        }
        return rows
    }

    /// A blob as SQL writes it, `x'00410042'`: its bytes whole (a NUL would end it as text),
    /// and nothing a terminal could act on.
    static func blobLiteral(_ handle: OpaquePointer, _ column: Int32) -> String {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return "x''" }
        let buffer = UnsafeRawBufferPointer(start: bytes, count: count)
        let digits = Array("0123456789ABCDEF".utf8)
        var text = [UInt8](repeating: 0, count: 2 * count + 3)
        text[0] = UInt8(ascii: "x")
        text[1] = UInt8(ascii: "'")
        for (index, byte) in buffer.enumerated() {
            text[2 + 2 * index] = digits[Int(byte >> 4)]
            text[3 + 2 * index] = digits[Int(byte & 0x0F)]
        }
        text[2 * count + 2] = UInt8(ascii: "'")
        return String(decoding: text, as: UTF8.self)
    }

    /// Takes the interrupt check away from the connection; the statement is finalized with it.
    func close() {
        guard let context else { return }
        self.context = nil
        sqlite3_progress_handler(statement.connection.handle, 0, nil, nil)
        // Balances the retain taken when the pointer was handed to SQLite.
        Unmanaged<InterruptCheck>.fromOpaque(context).release()
    }
}
