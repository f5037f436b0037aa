import CogInspector
import CogTraceFormat
import CogTraceStore
import Foundation

/// `export tables OUT`: the `sql` tables of every trace open, as JSON Lines files partitioned
/// the way Hive lays tables out, so DuckDB, Spark, Trino and Athena read a fleet of CI runs as
/// they are, with no load step: `OUT/TABLE/commit=C/run=R/part-TRACE.jsonl`. Every row of a
/// table has every column (null when unknown), so all parts share one schema; `commit` and
/// `run` come from the directory names. docs/recording-ci-failures.md documents the layout.
struct TraceTablesExport {
    /// The tables written: those `sql` has, and `runs` (one row per trace).
    static let tables = TraceDatabase.tableDeclarations.map(\.name) + ["runs"]
    /// The columns of `runs`, after `trace`.
    static let runColumns = ["trace", "title", "test", "branch", "job", "attempt", "run_id", "turns", "failures"]
    /// The partition a trace lacking CI metadata goes to.
    static let unknown = "unknown"

    /// One trace to write: its session and the name its rows carry.
    struct Part {
        let session: CommandContext
        let name: String

        /// `commit=…` and `run=…`: the CI commit and run, else `unknown` and the trace's run id.
        var partition: String {
            let ci = session.trace.header.ci
            let commit = ci?.commit ?? TraceTablesExport.unknown
            let run = ci.flatMap { metadata in
                metadata.run.map { run in run + (metadata.attempt.map { "-\($0)" } ?? "") }
            }
            return
                "commit=\(TraceTablesExport.pathSafe(commit))/run=\(TraceTablesExport.pathSafe(run ?? session.trace.header.runID))"
        }
    }

    let directory: String
    let parts: [Part]
    let force: Bool

    /// An export of `sessions` into `directory`, each trace named by its file name.
    init(sessions: [CommandContext], directory: String, force: Bool) {
        self.directory = directory
        self.force = force
        parts = sessions.map { session in
            Part(session: session, name: URL(fileURLWithPath: session.source).lastPathComponent)
        }
    }

    /// The file `part` writes for `table`.
    func path(of part: Part, table: String) -> String {
        let stem = Self.pathSafe((part.name as NSString).deletingPathExtension)
        return "\(directory)/\(table)/\(part.partition)/part-\(stem).jsonl"
    }

    /// Writes every table of every trace; what it wrote, for the summary.
    /// - Throws: before writing anything, when a part exists and `force` is not set or two
    ///   traces would write the same part; `InspectorError.interrupted` on Ctrl-C.
    func write() throws(InspectorError) -> (files: Int, rows: Int) {
        var seen: [String: String] = [:]
        for part in parts {
            let first = path(of: part, table: Self.tables[0])
            if let other = seen[first] {
                throw InspectorError(
                    "'\(part.session.source)' and '\(other)' would both write '\(first)': give their files different names",
                    kind: .output)
            }
            seen[first] = part.session.source
            for table in Self.tables { _ = try OutputFile(path(of: part, table: table), force: force) }
        }
        var rows = 0
        // Every table is written beside its destination first and put in place only once all
        // are written, so an export that fails or is interrupted leaves no part of itself:
        // neither a file nor a directory it made.
        var written: [(output: OutputFile, temporary: String)] = []
        var madeDirectories: [String] = []
        do throws(InspectorError) {
            // Many traces take a while: the front end shows how far, at a terminal.
            let report = parts.first?.session.progress
            for (done, part) in parts.enumerated() {
                report?(TraceProgress(task: "exporting tables", completed: done, total: parts.count))
                for table in Self.tables {
                    let destination = path(of: part, table: table)
                    madeDirectories += try Self.makeDirectories(for: destination)
                    let output = try OutputFile(destination, force: force)
                    let temporary = output.temporaryPath
                    rows += try write(part, table: table, to: temporary, destination: destination)
                    written.append((output, temporary))
                }
            }
        } catch {
            for file in written { unlink(file.temporary) }
            for directory in madeDirectories.reversed() { rmdir(directory) }
            throw error
        }
        // Put in place together once the command has answered: an interrupt up to then (or a
        // failed commit) leaves nothing, not even the directories made for them.
        let directories = madeDirectories
        parts.first?.session.writeWhenAnswered(
            PendingOutput(all: written.map { PendingOutput(temporary: $0.temporary, to: $0.output) }) {
                for directory in directories.reversed() { rmdir(directory) }
            })
        return (written.count, rows)
    }

    /// Writes one table of one trace to `temporary`, beside `destination`; how many rows. A
    /// failure removes the temporary file.
    private func write(
        _ part: Part, table: String, to temporary: String, destination: String
    ) throws(InspectorError) -> Int {
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporary)
        else {
            throw InspectorError("cannot write '\(destination)': its directory is not writable", kind: .output)
        }
        var buffer: [UInt8] = []
        do throws(InspectorError) {
            let rows = try writeLines(of: part, table: table) { line throws(InspectorError) in
                buffer.append(contentsOf: line.utf8)
                buffer.append(UInt8(ascii: "\n"))
                if buffer.count >= 1 << 20 { try flush(&buffer, to: handle, destination) }
            }
            try flush(&buffer, to: handle, destination)
            try? handle.close()
            return rows
        } catch {
            try? handle.close()
            unlink(temporary)
            throw error
        }
    }

    /// Creates the directory `file` goes in; the directories it had to make, outermost first.
    private static func makeDirectories(for file: String) throws(InspectorError) -> [String] {
        var missing: [String] = []
        var directory = (file as NSString).deletingLastPathComponent
        while !directory.isEmpty, directory != "/", !FileManager.default.fileExists(atPath: directory) {
            missing.insert(directory, at: 0)
            directory = (directory as NSString).deletingLastPathComponent
        }
        guard let deepest = missing.last else { return [] }
        do {
            try FileManager.default.createDirectory(atPath: deepest, withIntermediateDirectories: true)
        } catch {
            throw InspectorError("cannot create the directory of '\(file)'", kind: .output)
        }
        return missing
    }

    private func flush(_ buffer: inout [UInt8], to handle: FileHandle, _ destination: String) throws(InspectorError) {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw InspectorError("cannot write '\(destination)': \(error.localizedDescription)", kind: .output)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Gives `emit` the JSON line of each row of `table` for one trace; how many there were.
    private func writeLines(
        of part: Part, table: String, _ emit: (String) throws(InspectorError) -> Void
    ) throws(InspectorError) -> Int {
        let session = part.session
        if table == "runs" {
            let header = session.trace.header
            let ci = header.ci
            let values: [JSONValue] = [
                .string(part.name), .string(header.title), (ci?.test).map(JSONValue.string) ?? .null,
                (ci?.branch).map(JSONValue.string) ?? .null, (ci?.job).map(JSONValue.string) ?? .null,
                (ci?.attempt).map(JSONValue.int) ?? .null, .string(header.runID), .int(session.turns.count),
                .int(session.trace.failures.count),
            ]
            try emit(JSONValue.object(Array(zip(Self.runColumns, values))).jsonText)
            return 1
        }
        let columns = TraceTableRows.columnNames[table] ?? []
        // `seq` is the hidden old name of `turns.turn`: a file has each column once.
        let kept = columns.indices.filter { columns[$0] != "seq" || table != "turns" }
        let source = TraceDatabase.Source(
            name: part.name, trace: session.trace, label: { [unowned session] in session.label($0) },
            describe: { [unowned session] in session.describe($0) })
        var count = 0
        try TraceTableRows(source: source).forEachRow(in: table) { values throws(InspectorError) in
            count += 1
            // The session the command runs in hears Ctrl-C; the other traces open are its companions.
            if count % CommandContext.interruptCheckStep == 0, parts[0].session.interruptRequested() {
                throw .interrupted
            }
            let members = kept.map { index in
                (columns[index], index < values.count ? values[index].jsonValue : .null)
            }
            try emit(JSONValue.object(members).jsonText)
        }
        return count
    }

    /// `text` as one path component: letters, digits, `.`, `_` and `-` kept, anything else `_`
    /// (a branch's `/` included); never empty, never `.` or `..`.
    static func pathSafe(_ text: String) -> String {
        let kept = String(
            text.unicodeScalars.map { scalar -> Character in
                let allowed =
                    scalar.isASCII
                    && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
                return allowed ? Character(scalar) : "_"
            })
        return kept.isEmpty || kept == "." || kept == ".." ? "_" : kept
    }
}

extension SQLValue {
    /// The value as a typed JSON value.
    var jsonValue: JSONValue {
        switch self {
        case .integer(let number): .int(number)
        case .text(let text): .string(text)
        case .null: .null
        }
    }
}
