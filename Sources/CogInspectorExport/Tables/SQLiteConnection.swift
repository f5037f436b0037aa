import CSQLite
import CogInspector

/// The one owner of an open SQLite database handle: it opens in `init` and closes exactly once,
/// in `deinit`. A handle SQLite returns from a failed open is closed before `init` throws, so no
/// path closes it twice.
final class SQLiteConnection {
    let handle: OpaquePointer

    /// Opens the database at `path` (`:memory:` for one in memory).
    /// - Throws: `InspectorError` with SQLite's message.
    init(path: String) throws(InspectorError) {
        var opened: OpaquePointer?
        // One connection is only ever used from one thread at a time, so SQLite's own mutexes
        // (a third of an insert's time when filling a table) are left out.
        let status = sqlite3_open_v2(
            path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(opened)
            throw InspectorError("cannot open database '\(path)': \(message)")
        }
        handle = opened
    }

    deinit {
        // `close_v2` waits for any statement still alive instead of failing with SQLITE_BUSY;
        // statements keep their connection alive, so none outlives it anyway.
        sqlite3_close_v2(handle)
    }

    /// SQLite's latest error message on this connection.
    var lastError: String { String(cString: sqlite3_errmsg(handle)) }

    /// Runs `sql` (one or more statements) with no results.
    func execute(_ sql: String) throws(InspectorError) {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            defer { sqlite3_free(message) }
            throw InspectorError("sql: \(message.map { String(cString: $0) } ?? lastError)")
        }
    }
}

/// The one owner of a prepared statement: finalized exactly once, in `deinit`, on every path
/// (a failed load included). It keeps its connection open while it lives.
final class SQLiteStatement {
    let connection: SQLiteConnection
    let handle: OpaquePointer
    /// What followed the first statement in the text it was prepared from.
    let tail: String

    /// Prepares the first statement of `sql`.
    /// - Throws: `InspectorError` with SQLite's message.
    init(_ sql: String, on connection: SQLiteConnection) throws(InspectorError) {
        var prepared: OpaquePointer?
        // SQLite's `tail` points into the C string it was given, which lives only inside this
        // closure; what follows the first statement is read there.
        let (status, rest) = sql.withCString { text -> (Int32, String) in
            var tail: UnsafePointer<CChar>?
            let status = sqlite3_prepare_v2(connection.handle, text, -1, &prepared, &tail)
            return (status, tail.map { String(cString: $0) } ?? "")
        }
        guard status == SQLITE_OK, let prepared else {
            sqlite3_finalize(prepared)
            throw InspectorError("sql: \(connection.lastError) in '\(sql)'")
        }
        self.connection = connection
        handle = prepared
        tail = rest
    }

    deinit {
        sqlite3_finalize(handle)
    }
}
