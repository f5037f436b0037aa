import CSQLite
import CogCommandLine
public import CogInspector
public import CogTraceFormat
public import CogTraceStore
import Foundation

/// A recording as SQLite tables (turns, events, writes, recomputes, edges, leases, states,
/// async), for questions the commands do not ask. The schema is in `docs/inspector.md` and in
/// `TraceDatabase.schema`. `export sqlite` fills every table into a file; `sql` serves the
/// tables made of turns and events as virtual tables that read the trace as a query runs
/// (`TraceVirtualTable`), so nothing is copied before the first answer.
public final class TraceDatabase {
    /// The tables, as created.
    public static let schema = """
        CREATE TABLE states(id INTEGER, label TEXT, declaration TEXT, key TEXT, shape TEXT,
                            value_type TEXT, lifetime TEXT, policy TEXT, trace TEXT, PRIMARY KEY (id, trace));
        CREATE TABLE turns(turn INTEGER, seq INTEGER HIDDEN, name TEXT, origin TEXT, cause INTEGER,
                           start_us INTEGER, duration_us INTEGER, events INTEGER, trace TEXT,
                           PRIMARY KEY (turn, trace));
        CREATE TABLE events(turn INTEGER, position INTEGER, after_turn INTEGER, kind TEXT, state INTEGER,
                            label TEXT, description TEXT, trace TEXT);
        CREATE TABLE writes(turn INTEGER, state INTEGER, label TEXT, old TEXT, new TEXT, new_json TEXT,
                            equal INTEGER, trace TEXT);
        CREATE TABLE recomputes(turn INTEGER, after_turn INTEGER, state INTEGER, label TEXT, old TEXT, new TEXT,
                                new_json TEXT, changed INTEGER, trigger INTEGER, trigger_label TEXT, trace TEXT);
        CREATE TABLE edges(turn INTEGER, after_turn INTEGER, consumer INTEGER, consumer_label TEXT,
                           producer INTEGER, producer_label TEXT, change TEXT, trace TEXT);
        CREATE TABLE leases(turn INTEGER, after_turn INTEGER, state INTEGER, label TEXT, holder TEXT, change TEXT,
                            trace TEXT);
        CREATE TABLE async(turn INTEGER, after_turn INTEGER, state INTEGER, label TEXT, generation INTEGER,
                           step TEXT, detail TEXT, trace TEXT);
        CREATE TABLE failures(after_turn INTEGER, test TEXT, kind TEXT, message TEXT, file TEXT, line INTEGER,
                              trace TEXT);
        """

    /// A query's result: column names and rows of typed cells (integers, reals, text; a NULL is
    /// absent).
    public struct Rows: Equatable {
        /// The result's column names.
        public let columns: [String]
        /// Each row's cells as text.
        public let rows: [[Cell]]
    }

    /// Every table the schema makes, by name, with the statement that makes it.
    static let tableDeclarations: [(name: String, declaration: String)] = schema.split(separator: ";")
        .compactMap { statement in
            let text = statement.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let name = text.split(separator: "(").first?.split(separator: " ").last else { return nil }
            return (String(name), text)
        }

    let connection: SQLiteConnection
    /// The virtual tables `sql` reads, by name (empty when every table is filled).
    private let virtualTables = TraceVirtualTableModule.Registry()
    /// The insert statements, by table, while tables are filled.
    private var statements: [String: SQLiteStatement] = [:]

    /// Builds the tables for `trace` in a database at `path` (`:memory:` by default); `path` must
    /// be a new file (`export sqlite` builds beside its destination and renames).
    /// - Parameters:
    ///   - label: names a state or registration id.
    ///   - describe: one event as a sentence, for the `events` table.
    /// - Throws: `InspectorError` when SQLite cannot open the file or a turn cannot be decoded.
    public convenience init(
        trace: TraceFile, name: String = "", path: String = ":memory:", label: @escaping (NodeID) -> String,
        describe: @escaping (TraceEvent) -> String
    ) throws(InspectorError) {
        try self.init(sources: [Source(name: name, trace: trace, label: label, describe: describe)], path: path)
    }

    /// One recording to load: its name (the `trace` column), the file, and how to name its ids
    /// and events.
    public struct Source {
        public let name: String
        public let trace: TraceFile
        public let label: (NodeID) -> String
        public let describe: (TraceEvent) -> String

        public init(
            name: String, trace: TraceFile, label: @escaping (NodeID) -> String,
            describe: @escaping (TraceEvent) -> String
        ) {
            self.name = name
            self.trace = trace
            self.label = label
            self.describe = describe
        }
    }

    /// Makes the tables for every source in one database, each row saying its trace, so one
    /// query can compare many runs.
    /// - Parameter fillsEveryTable: copy every row into real tables now (for a file another
    ///   program reads); otherwise the tables of turns and events are virtual, read from the
    ///   trace by each query.
    public init(sources: [Source], path: String = ":memory:", fillsEveryTable: Bool = true) throws(InspectorError) {
        connection = try SQLiteConnection(path: path)
        // `sql` runs what a person or a script types; ATTACH would let it open or create other
        // files, so a database built here attaches nothing.
        sqlite3_limit(connection.handle, SQLITE_LIMIT_ATTACHED, 0)
        if !fillsEveryTable { try TraceVirtualTableModule.register(on: connection, registry: virtualTables) }
        try execute("BEGIN")
        for (name, declaration) in Self.tableDeclarations {
            if fillsEveryTable || TraceTableRows.scannedTables[name] == nil {
                try execute(declaration)
                for source in sources { try TraceDatabaseLoader(database: self, source: source).fill(name) }
            } else {
                virtualTables.tables[name] = TraceVirtualTable(
                    name: name, declaration: declaration, sources: sources.map(TraceTableRows.init))
                try execute("CREATE VIRTUAL TABLE \(name) USING \(TraceVirtualTableModule.name)")
            }
        }
        try execute("COMMIT")
        statements = [:]
    }

    /// Adds `sources` to the database `export sqlite` wrote at `path`, in one transaction: a
    /// database of another schema, or one holding a trace of the same name, is refused with
    /// nothing changed.
    public init(appending sources: [Source], to path: String) throws(InspectorError) {
        do {
            connection = try SQLiteConnection(path: path)
        } catch {
            throw Self.cannotAdd(to: path, error)
        }
        sqlite3_limit(connection.handle, SQLITE_LIMIT_ATTACHED, 0)
        // Whatever stops the append (a file that is not a database, a read-only one, a full
        // disk) is about the output, exit 73, not about the command.
        do throws(InspectorError) {
            for (name, _) in Self.tableDeclarations {
                let found = try columnNames(of: name)
                guard found == TraceTableRows.columnNames[name] else {
                    throw InspectorError(
                        "'\(path)' is not a database export sqlite wrote (its \(name) table "
                            + (found.isEmpty ? "is missing" : "has other columns") + "); give a new FILE instead",
                        kind: .output)
                }
            }
            // A trigger would run code of the database's author on every row added: refused.
            let triggers = try triggerNames()
            if !triggers.isEmpty {
                throw InspectorError(
                    "'\(path)' has triggers (\(triggers.map { TerminalText.escape($0) }.joined(separator: ", "))), "
                        + "which export sqlite never writes; give a new FILE instead",
                    kind: .output)
            }
            for source in sources {
                for table in ["states", "turns"] where try count(in: table, trace: source.name) > 0 {
                    throw InspectorError(
                        "'\(path)' holds '\(source.name)' already; export it to a new database, or rename the trace",
                        kind: .output)
                }
            }
            try execute("BEGIN")
            for (name, _) in Self.tableDeclarations {
                for source in sources { try TraceDatabaseLoader(database: self, source: source).fill(name) }
            }
            try execute("COMMIT")
        } catch {
            _ = try? execute("ROLLBACK")
            throw Self.cannotAdd(to: path, error)
        }
        statements = [:]
    }

    /// `error` as a refusal of the output file: exit 73.
    private static func cannotAdd(to path: String, _ error: InspectorError) -> InspectorError {
        guard error.kind != .output, error.kind != .malformedTrace, error.kind != .interrupted else { return error }
        return InspectorError("cannot add to '\(path)': \(error.message)", kind: .output)
    }

    /// The columns of `table` in order; none when it does not exist.
    private func columnNames(of table: String) throws(InspectorError) -> [String] {
        let statement = try SQLiteStatement("PRAGMA table_info(\(table))", on: connection)
        var names: [String] = []
        while sqlite3_step(statement.handle) == SQLITE_ROW {
            names.append(sqlite3_column_text(statement.handle, 1).map { String(cString: $0) } ?? "")
        }
        return names
    }

    /// The names of the database's triggers, sorted.
    private func triggerNames() throws(InspectorError) -> [String] {
        let statement = try SQLiteStatement(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name", on: connection)
        var names: [String] = []
        while sqlite3_step(statement.handle) == SQLITE_ROW {
            names.append(sqlite3_column_text(statement.handle, 0).map { String(cString: $0) } ?? "")
        }
        return names
    }

    /// How many rows of `table` belong to the trace named `trace`.
    private func count(in table: String, trace: String) throws(InspectorError) -> Int {
        let statement = try SQLiteStatement("SELECT count(*) FROM \(table) WHERE trace = ?", on: connection)
        sqlite3_bind_text(statement.handle, 1, TerminalText.escape(trace), -1, Self.transient)
        guard sqlite3_step(statement.handle) == SQLITE_ROW else { return 0 }
        return Int(sqlite3_column_int64(statement.handle, 0))
    }

    /// Runs one read-only statement.
    /// - Throws: `InspectorError` quoting SQLite's message, or refusing a statement that would
    ///   change the tables or a second statement.
    /// - Parameter interrupt: asked every few thousand SQLite instructions; true stops the query
    ///   (an unbounded recursive query included) with `InspectorError.interrupted`.
    public func query(_ sql: String, interrupt: (() -> Bool)? = nil) throws(InspectorError) -> Rows {
        let cursor = try open(sql, interrupt: interrupt)
        var rows: [[Cell]] = []
        while let batch = try cursor.next(atMost: .max) { rows += batch }
        return Rows(columns: cursor.columns, rows: rows)
    }

    /// Prepares one read-only statement for `QueryCursor` to step through.
    /// - Throws: `InspectorError` quoting SQLite's message, or refusing a statement that would
    ///   change the tables or a second statement.
    func open(_ sql: String, interrupt: (() -> Bool)?) throws(InspectorError) -> QueryCursor {
        let readOnly = InspectorError(
            "sql only reads; '\(sql)' would change the tables (use export sqlite FILE for a copy to change)")
        let prepared: SQLiteStatement
        do {
            prepared = try SQLiteStatement(sql, on: connection)
        } catch {
            // SQLite refuses a change to a virtual table while preparing it.
            throw connection.lastError.hasSuffix("may not be modified") ? readOnly : error
        }
        if !prepared.tail.allSatisfy({ $0.isWhitespace || $0 == ";" }) {
            throw InspectorError("sql runs one statement at a time; '\(sql)' has more")
        }
        guard sqlite3_stmt_readonly(prepared.handle) != 0 else { throw readOnly }
        return QueryCursor(database: self, statement: prepared, sql: sql, interrupt: interrupt ?? { false })
    }

    /// Why a virtual table stopped a query (a malformed turn, an interrupt), taken once.
    func takeVirtualTableFailure() -> InspectorError? {
        for table in virtualTables.tables.values {
            if let failure = table.failure {
                table.failure = nil
                return failure
            }
        }
        return nil
    }

    func execute(_ sql: String) throws(InspectorError) {
        do {
            try connection.execute(sql)
        } catch {
            throw InspectorError("\(error) while building the tables")
        }
    }

    /// Inserts one row into `table`; `nil` values become NULL. Text goes through the terminal's
    /// escaping first: a file written for `sqlite3` or DuckDB is read on a terminal too, and a
    /// recorded control sequence must not reach it from there either.
    func insert(_ table: String, _ values: [SQLValue]) throws(InspectorError) {
        let statement = try insertStatement(table, columns: values.count).handle
        sqlite3_reset(statement)
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            switch value {
            case .integer(let number): sqlite3_bind_int64(statement, position, Int64(number))
            case .text(let text):
                sqlite3_bind_text(statement, position, TerminalText.escape(text), -1, Self.transient)
            case .null: sqlite3_bind_null(statement, position)
            }
        }
        guard sqlite3_step(statement) == SQLITE_DONE else {
            throw InspectorError("sql: \(connection.lastError) while filling \(table)")
        }
    }

    private func insertStatement(_ table: String, columns: Int) throws(InspectorError) -> SQLiteStatement {
        if let statement = statements[table] { return statement }
        let sql = "INSERT INTO \(table) VALUES (\(Array(repeating: "?", count: columns).joined(separator: ",")))"
        let statement = try SQLiteStatement(sql, on: connection)
        statements[table] = statement
        return statement
    }

    /// SQLite's "copy the bytes now" destructor, which the C header spells as a cast of -1.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// A value bound into an insert.
enum SQLValue {
    case integer(Int)
    case text(String)
    case null

    init(_ number: Int?) { self = number.map(SQLValue.integer) ?? .null }
    init(_ id: NodeID?) { self = id.map { .integer($0.rawValue) } ?? .null }
    static func integer(_ id: NodeID) -> SQLValue { .integer(id.rawValue) }
    static func integer(_ turn: TurnNumber) -> SQLValue { .integer(turn.rawValue) }
    init(_ turn: TurnNumber?) { self = turn.map { .integer($0.rawValue) } ?? .null }
    init(_ text: String?) { self = text.map(SQLValue.text) ?? .null }
    init(_ flag: Bool) { self = .integer(flag ? 1 : 0) }
}

/// The interrupt check a running query's progress handler asks, boxed so C can hold it.
final class InterruptCheck {
    let isRequested: () -> Bool

    init(_ isRequested: @escaping () -> Bool) {
        self.isRequested = isRequested
    }
}
