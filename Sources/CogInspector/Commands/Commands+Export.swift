import CogTraceFormat
import Foundation

extension CommandCatalog {
    static let export: [CommandSpec] = [
        CommandSpec(
            name: "export", aliases: ["x"], group: "export",
            synopsis:
                "export dot|mermaid|json|chrome|sqlite|tables|html [--turn N] [--focus STATE [--depth D]] "
                + "[--turns A..B] [--trace OTHER] [--to FILE [--force|--append]]",
            summary: "the graph at the cursor (or after turn N, marking what that turn did) as Graphviz DOT, a Mermaid "
                + "flowchart or node-link JSON; --focus keeps the states within D edges of one (2 by default). chrome "
                + "is the whole recording as a Perfetto/chrome://tracing timeline; sqlite writes the sql tables to FILE "
                + "(--append adds the traces to a FILE it wrote before); tables DIR writes them for every trace open "
                + "as JSON Lines under DIR/TABLE/commit=C/run=R/ for DuckDB, Spark or Trino; html "
                + "is one self-contained page that draws the graph after any turn (--layout dot or layered; dot when "
                + "Graphviz is installed), of the turns A..B with --turns (a recording over 20,000 turns exports the "
                + "20,000 around the cursor unless told), beside the recording OTHER with --trace. "
                + "Without --to the document goes to standard output; an existing FILE is replaced only with --force",
            example: "export dot --turn 9 --focus weather.isNiceHere --to turn9.dot",
            valueFlags: ["--turn", "--focus", "--depth", "--to", "--layout", "--turns", "--trace"],
            switches: ["--force", "--append"]
        ) { session, arguments throws(InspectorError) in
            guard let format = arguments.positional.first else {
                throw InspectorError("export needs a format: dot, mermaid, json, chrome, sqlite, tables or html")
            }
            let takesPath = format == "sqlite" || format == "tables"
            let destination =
                arguments.options["--to"] ?? (takesPath ? arguments.positional.dropFirst().first : nil)
            guard
                arguments.positional.count == 1
                    || (takesPath && arguments.positional.count == 2 && arguments.options["--to"] == nil)
            else {
                throw InspectorError("export takes one format; see 'help export'")
            }
            for flag in ["--layout", "--turns", "--trace"] where format != "html" && arguments.options[flag] != nil {
                throw InspectorError("\(flag) goes with export html")
            }
            if format == "tables" {
                guard let destination else {
                    throw InspectorError(
                        "export tables needs a DIRECTORY to write under, e.g. export tables fleet (or --to fleet)")
                }
                let export = TraceTablesExport(
                    sessions: [session] + session.companions, directory: destination,
                    force: arguments.switches.contains("--force"))
                let written = try export.write()
                return [
                    .message(
                        "wrote \(written.rows) rows of \(TraceTablesExport.tables.count) tables for \(export.parts.count) "
                            + "trace\(export.parts.count == 1 ? "" : "s") under \(destination) (\(written.files) files)"
                    )
                ]
            }
            if arguments.switches.contains("--append") {
                guard format == "sqlite", let destination else {
                    throw InspectorError("--append goes with export sqlite FILE")
                }
                return try session.appendTables(to: destination, force: arguments.switches.contains("--force"))
            }
            // Checked before any work, so a refused destination costs nothing and loses nothing.
            let output = try destination.map { path throws(InspectorError) in
                try OutputFile(path, force: arguments.switches.contains("--force"))
            }
            switch format {
            case "dot", "mermaid", "json":
                let view = try session.graphView(arguments)
                let title = session.exportTitle(for: view)
                let text =
                    switch format {
                    case "dot": DOTExport.render(view, title: title)
                    case "mermaid": MermaidExport.render(view, title: title)
                    default: GraphJSONExport.render(view, title: title)
                    }
                return try session.deliver(
                    text, to: output,
                    summary: "\(format) export, \(view.nodes.count) nodes and \(view.edges.count) edges")
            case "chrome":
                guard arguments.options["--turn"] == nil, arguments.options["--focus"] == nil else {
                    throw InspectorError("export chrome covers the whole recording; --turn and --focus do not apply")
                }
                var export = ChromeTraceExport(trace: session.trace, label: { session.label($0) })
                let text: String
                do throws(TraceReadError) {
                    text = try export.render()
                } catch {
                    throw session.malformed(error)
                }
                return try session.deliver(
                    text, to: output, summary: "chrome trace of \(session.turns.count) turns")
            case "html":
                return try session.exportHTML(arguments, to: output)
            case "sqlite":
                guard let output else {
                    throw InspectorError(
                        "export sqlite needs a FILE to write, e.g. export sqlite runs.db (or --to runs.db)")
                }
                let temporary = output.temporaryPath
                do throws(InspectorError) {
                    _ = try TraceDatabase(
                        sources: ([session] + session.companions).map(\.databaseSource), path: temporary)
                } catch {
                    unlink(temporary)
                    // The temporary file is the export's own business: the error names the target.
                    guard error.kind != .interrupted else { throw error }
                    let reason = error.message.replacingOccurrences(of: "'\(temporary)'", with: "'\(output.path)'")
                    throw InspectorError(reason, kind: .output)
                }
                try output.commit(temporary)
                let count = 1 + session.companions.count
                let what = count == 1 ? "the sql tables" : "the sql tables of \(count) traces"
                return [.message("wrote \(what) to \(output.path); open it with sqlite3 \(output.path)")]
            default:
                throw InspectorError(
                    "unknown export format '\(format)'; expected dot, mermaid, json, chrome, sqlite, tables or html")
            }
        },
        CommandSpec(
            name: "sql", aliases: [], group: "export", synopsis: "sql QUERY",
            summary: "run a read-only SQLite query over the recording's tables (turns, events, writes, recomputes, "
                + "edges, leases, states, async, failures), read from the trace as the query runs; the schema is in "
                + "docs/inspector.md",
            example: "sql SELECT label, count(*) AS runs FROM recomputes GROUP BY label ORDER BY runs DESC LIMIT 3",
            valueFlags: []
        ) { session, arguments throws(InspectorError) in
            let query = arguments.text.trimmed.unquoted
            guard !query.isEmpty else {
                throw InspectorError("sql needs a query, e.g. 'sql SELECT * FROM turns LIMIT 5'")
            }
            let cursor = try session.tables().open(query, interrupt: session.interruptRequested)
            // With one trace every row's `trace` is the same path: a `SELECT *` does not show it,
            // a query that names the column does.
            let namesTrace = query.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "_") }.contains("trace")
            let hidden =
                session.companions.isEmpty && !namesTrace ? cursor.columns.lastIndex(of: "trace") : nil
            let columns = cursor.columns.enumerated().filter { $0.offset != hidden }.map(\.element)
            func shown(_ rows: [[Cell]]) -> [[Cell]] {
                guard let hidden else { return rows }
                return rows.map { row in row.enumerated().filter { $0.offset != hidden }.map(\.element) }
            }
            // The first rows are read now, so a query that fails at once fails as a command.
            let first = try cursor.next(atMost: session.streamsTables ? 256 : .max) ?? []
            guard !first.isEmpty else { return [.message("no rows")] }
            guard session.streamsTables else { return [.table(columns: columns, rows: shown(first))] }
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
        },
    ]
}

extension InspectorSession {
    /// The graph an export draws: after `--turn N` with that turn's effects marked, or at the
    /// cursor; narrowed by `--focus`/`--depth`.
    func graphView(_ arguments: CommandArguments) throws(InspectorError) -> GraphView {
        let annotated = try arguments.options["--turn"].map { text throws(InspectorError) in
            try CommandArguments.turn(text)
        }
        if let annotated { try requireTurn(annotated) }
        let sequence = annotated ?? cursor
        let view = GraphView(
            graph: try graph(after: sequence), turn: turns.isEmpty ? nil : sequence,
            states: trace.states,
            annotating: try annotated.map { number throws(InspectorError) in
                try turn(number)
            })
        guard let focus = arguments.options["--focus"] else {
            guard arguments.options["--depth"] == nil else { throw InspectorError("--depth goes with --focus STATE") }
            return view
        }
        let center = try resolveState(focus)
        let depth =
            try arguments.options["--depth"].map { text throws(InspectorError) in
                try CommandArguments.number(text, "a depth")
            } ?? 2
        guard depth >= 0 else { throw InspectorError("a depth must be 0 or more, not \(depth)") }
        guard view.nodes.contains(where: { $0.id == center }) else {
            throw InspectorError("\(focus) does not exist at turn \(sequence); 'state' lists the live states")
        }
        return view.focused(on: center, depth: depth)
    }

    func exportTitle(for view: GraphView) -> String {
        guard let turn = view.turn else { return trace.header.title }
        let name = (try? self.turn(turn).name).map { " (\($0))" } ?? ""
        return "\(trace.header.title): \(view.isAnnotated ? "turn" : "after turn") \(turn)\(name)"
    }

    /// Prints a document, or writes it to `path` and says so.
    func deliver(_ text: String, to output: OutputFile?, summary: String) throws(InspectorError) -> [Report] {
        guard let output else { return [.document(text)] }
        try output.write(Array(text.utf8))
        return [.message("wrote \(summary) to \(output.path)")]
    }

    /// The SQLite tables, made on first use; each is filled when a query first reads it.
    func tables() throws(InspectorError) -> TraceDatabase {
        if let database { return database }
        let built = try TraceDatabase(sources: [databaseSource], fillsEveryTable: false)
        database = built
        return built
    }
}

extension InspectorSession {
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
    var databaseSource: TraceDatabase.Source {
        TraceDatabase.Source(
            name: source, trace: trace, label: { [unowned self] in label($0) },
            describe: { [unowned self] in describe($0) })
    }
}
