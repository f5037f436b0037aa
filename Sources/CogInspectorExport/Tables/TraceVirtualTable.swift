import CSQLite
import CogInspector
import CogTraceFormat
import CogTraceStore

/// A table of a trace served to SQLite as a virtual table: a query reads its rows straight from
/// the trace file, turn by turn, instead of from rows copied into SQLite first. On a
/// million-turn trace that makes the first `sql` query cost one scan of the file (on all cores)
/// rather than seconds of inserts, and the tables take no memory of their own.
///
/// Rows come in turn order, every source after the one before. No constraint is pushed down:
/// SQLite filters, sorts and joins as it would a table without indexes.
final class TraceVirtualTable {
    let name: String
    /// The `CREATE TABLE` statement declaring the columns, as the real table has them.
    let declaration: String
    let sources: [TraceTableRows]
    /// The column names, in order.
    let columns: [String]
    /// The error the last cursor stopped on (a malformed turn, an interrupt), for `query` to
    /// throw in place of SQLite's generic message.
    var failure: InspectorError?

    /// Whether reading the columns in `columnsUsed` (SQLite's bitmask: bit N for column N, the
    /// last bit for every column from 63 on) needs any row's record decoded.
    func needsDecoding(columnsUsed: UInt64) -> Bool {
        columns.indices.contains { column in
            columnsUsed & (1 << UInt64(min(column, 63))) != 0 && !TraceTableRows.knownColumns.contains(columns[column])
        }
    }

    init(name: String, declaration: String, sources: [TraceTableRows]) {
        self.name = name
        self.declaration = declaration
        self.sources = sources
        columns = TraceTableRows.columnNames[name] ?? []
    }
}

/// A walk over one virtual table's rows: the scan of the current source's turns, the rows of
/// the current turn, and the current row's values once a column is asked for.
final class TraceVirtualCursor {
    let table: TraceVirtualTable
    private var sourceIndex = 0
    private var turns: TurnScanIterator?
    private var rows: [TraceTableRows.Row] = []
    private var rowIndex = 0
    private var values: [SQLValue]?
    private(set) var rowID: Int64 = 0
    private(set) var isAtEnd = false

    init(table: TraceVirtualTable) {
        self.table = table
    }

    /// Whether the scan decodes every row's record on all cores: a query asks for a column the
    /// scan does not know, so every row will be decoded anyway.
    private var decodes = false

    /// Moves to the first row; `decodes` says whether the query reads columns that need the
    /// decoded record.
    func start(decodes: Bool) throws(InspectorError) {
        self.decodes = decodes || table.name == "events"
        sourceIndex = 0
        turns = nil
        rows = []
        rowIndex = 0
        rowID = 0
        isAtEnd = false
        try advance()
    }

    /// Moves to the next row, reading turns until one gives a row.
    func advance() throws(InspectorError) {
        values = nil
        rowIndex += 1
        while rowIndex >= rows.count {
            guard sourceIndex < table.sources.count else {
                isAtEnd = true
                return
            }
            let source = table.sources[sourceIndex]
            if turns == nil {
                turns = TurnScanIterator(
                    trace: source.source.trace, kinds: TraceTableRows.scannedTables[table.name] ?? [],
                    decodes: decodes, decodesHeadings: decodes && table.name == "turns")
            }
            guard let result = turns?.next() else {
                sourceIndex += 1
                turns = nil
                continue
            }
            switch result {
            case .success(let turn):
                rows = TraceTableRows.rows(of: turn, in: table.name)
                rowIndex = 0
            case .failure(let error) where error == TraceFile.cancelled:
                throw .interrupted
            case .failure(let error):
                throw InspectorError.malformed(error)
            }
        }
        rowID += 1
    }

    /// The current row's value in column `column`.
    /// - Throws: `InspectorError` when the row's record is malformed.
    func value(column: Int) throws(InspectorError) -> SQLValue {
        let source = table.sources[sourceIndex]
        if values == nil, table.columns.indices.contains(column),
            let known = source.knownValue(of: rows[rowIndex], column: table.columns[column])
        {
            return known
        }
        if values == nil { values = try source.values(of: rows[rowIndex], in: table.name) }
        guard let values, values.indices.contains(column) else { return .null }
        return values[column]
    }
}

/// The SQLite module that serves `TraceVirtualTable`s: its callbacks find the Swift objects
/// through the pointers in `CogVirtualTable` and `CogVirtualCursor` (see the C shim).
enum TraceVirtualTableModule {
    /// The name tables are created with: `CREATE VIRTUAL TABLE turns USING cogtrace`.
    static let name = "cogtrace"

    /// The tables of one database, by name: the module's client data.
    final class Registry {
        var tables: [String: TraceVirtualTable] = [:]
    }

    /// The module's callbacks, written once and only read by SQLite after.
    ///
    /// Sendable by hand: the pointer is filled when the static is initialized and never written
    /// again, and SQLite only reads through it.
    private struct Module: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<sqlite3_module>
    }

    private static let module: Module = {
        let pointer = UnsafeMutablePointer<sqlite3_module>.allocate(capacity: 1)
        pointer.initialize(to: sqlite3_module())
        pointer.pointee.iVersion = 1
        pointer.pointee.xCreate = connect
        pointer.pointee.xConnect = connect
        pointer.pointee.xBestIndex = { vtab, info in
            guard let vtab, let info else { return SQLITE_ERROR }
            // SQLite hands back the pointer given to it, whose object outlives the call (retained by its owner).
            let table = Unmanaged<TraceVirtualTable>.fromOpaque(
                UnsafeMutableRawPointer(vtab).assumingMemoryBound(to: CogVirtualTable.self).pointee.table
            ).takeUnretainedValue()
            info.pointee.estimatedCost = 1e12
            // Plan 1 decodes every row as it is scanned: some column the query reads needs it.
            info.pointee.idxNum = table.needsDecoding(columnsUsed: info.pointee.colUsed) ? 1 : 0
            return SQLITE_OK
        }
        pointer.pointee.xDisconnect = { vtab in
            sqlite3_free(vtab)
            return SQLITE_OK
        }
        pointer.pointee.xDestroy = pointer.pointee.xDisconnect
        pointer.pointee.xOpen = { vtab, cursorOut in
            guard let vtab, let cursorOut else { return SQLITE_ERROR }
            // SQLite hands back the pointer given to it, whose object outlives the call (retained by its owner).
            let table = Unmanaged<TraceVirtualTable>.fromOpaque(
                UnsafeMutableRawPointer(vtab).assumingMemoryBound(to: CogVirtualTable.self).pointee.table
            ).takeUnretainedValue()
            guard let raw = sqlite3_malloc(Int32(MemoryLayout<CogVirtualCursor>.size)) else { return SQLITE_NOMEM }
            let cursor = raw.bindMemory(to: CogVirtualCursor.self, capacity: 1)
            cursor.initialize(to: CogVirtualCursor())
            cursor.pointee.cursor = Unmanaged.passRetained(TraceVirtualCursor(table: table)).toOpaque()
            cursorOut.pointee = UnsafeMutableRawPointer(cursor).assumingMemoryBound(to: sqlite3_vtab_cursor.self)
            return SQLITE_OK
        }
        pointer.pointee.xClose = { cursor in
            guard let cursor else { return SQLITE_OK }
            let owned = UnsafeMutableRawPointer(cursor).assumingMemoryBound(to: CogVirtualCursor.self)
            // Balances the retain taken when the pointer was handed to SQLite.
            Unmanaged<TraceVirtualCursor>.fromOpaque(owned.pointee.cursor).release()
            sqlite3_free(cursor)
            return SQLITE_OK
        }
        pointer.pointee.xFilter = { cursor, plan, _, _, _ in
            step(cursor) { (walker) throws(InspectorError) in try walker.start(decodes: plan == 1) }
        }
        pointer.pointee.xNext = { cursor in step(cursor) { (walker) throws(InspectorError) in try walker.advance() } }
        pointer.pointee.xEof = { cursor in walker(cursor).isAtEnd ? 1 : 0 }
        pointer.pointee.xColumn = { cursor, context, column in
            let walker = walker(cursor)
            let value: SQLValue
            do throws(InspectorError) {
                value = try walker.value(column: Int(column))
            } catch {
                walker.table.failure = error
                return SQLITE_ERROR
            }
            switch value {
            case .integer(let number): sqlite3_result_int64(context, Int64(number))
            case .text(let text): sqlite3_result_text(context, text, -1, TraceDatabase.transient)
            case .null: sqlite3_result_null(context)
            }
            return SQLITE_OK
        }
        pointer.pointee.xRowid = { cursor, rowID in
            rowID?.pointee = walker(cursor).rowID
            return SQLITE_OK
        }
        return Module(pointer: pointer)
    }()

    /// Adds the module to `connection`, serving the tables in `registry`.
    static func register(on connection: SQLiteConnection, registry: Registry) throws(InspectorError) {
        let status = sqlite3_create_module_v2(
            connection.handle, name, module.pointer, Unmanaged.passUnretained(registry).toOpaque(), nil)
        guard status == SQLITE_OK else { throw InspectorError("sql: \(connection.lastError) while making the tables") }
    }

    /// `xCreate` and `xConnect`: declares the table named in the statement and points SQLite's
    /// table at its Swift object.
    private static let connect:
        @convention(c) (
            OpaquePointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<UnsafePointer<CChar>?>?,
            UnsafeMutablePointer<UnsafeMutablePointer<sqlite3_vtab>?>?,
            UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        ) -> Int32 = { database, clientData, argumentCount, arguments, vtabOut, _ in
            guard let clientData, let arguments, argumentCount >= 3, let vtabOut, let named = arguments[2] else {
                return SQLITE_ERROR
            }
            // SQLite hands back the pointer given to it, whose object outlives the call (retained by its owner).
            let registry = Unmanaged<Registry>.fromOpaque(clientData).takeUnretainedValue()
            guard let table = registry.tables[String(cString: named)] else { return SQLITE_ERROR }
            let status = sqlite3_declare_vtab(database, table.declaration)
            guard status == SQLITE_OK else { return status }
            guard let raw = sqlite3_malloc(Int32(MemoryLayout<CogVirtualTable>.size)) else { return SQLITE_NOMEM }
            let vtab = raw.bindMemory(to: CogVirtualTable.self, capacity: 1)
            vtab.initialize(to: CogVirtualTable())
            vtab.pointee.table = Unmanaged.passUnretained(table).toOpaque()
            vtabOut.pointee = UnsafeMutableRawPointer(vtab).assumingMemoryBound(to: sqlite3_vtab.self)
            return SQLITE_OK
        }

    private static func walker(_ cursor: UnsafeMutablePointer<sqlite3_vtab_cursor>?) -> TraceVirtualCursor {
        // SQLite hands every cursor callback the cursor its xOpen made, never NULL.
        guard let cursor else { preconditionFailure("SQLite called a cursor method without its cursor") }
        let owned = UnsafeMutableRawPointer(cursor).assumingMemoryBound(to: CogVirtualCursor.self)
        // SQLite hands back the pointer given to it, whose object outlives the call (retained by its owner).
        return Unmanaged<TraceVirtualCursor>.fromOpaque(owned.pointee.cursor).takeUnretainedValue()
    }

    /// Runs a cursor's move; an error is kept on its table for `query` and reported to SQLite.
    private static func step(
        _ cursor: UnsafeMutablePointer<sqlite3_vtab_cursor>?,
        _ move: (TraceVirtualCursor) throws(InspectorError) -> Void
    ) -> Int32 {
        let walker = walker(cursor)
        do {
            try move(walker)
            return SQLITE_OK
        } catch {
            walker.table.failure = error
            return SQLITE_ERROR
        }
    }
}
