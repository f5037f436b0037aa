public import CogInspector
import CogTraceFormat
import Foundation

extension CommandCatalog {
    /// Every command and export format `coginspect` offers: the engine's own, `sql`, and the
    /// exports that need SQLite (`sqlite`, `tables`) or carry the viewer (`html`).
    public static let standard = CommandCatalog.core.adding(
        commands: [ExportCommands.sql],
        exportFormats: [ExportCommands.sqlite, ExportCommands.tables, ExportCommands.html])
}

/// The commands and export formats of this module, which the `standard` catalog adds.
enum ExportCommands {
    static let sql = CommandSpec(
        name: "sql", aliases: [], group: "export", synopsis: "sql QUERY",
        summary: "run a read-only SQLite query over the recording's tables (turns, events, writes, recomputes, "
            + "edges, leases, states, async, failures), read from the trace as the query runs; the schema is in "
            + "docs/inspector.md",
        example: "sql SELECT label, count(*) AS runs FROM recomputes GROUP BY label ORDER BY runs DESC LIMIT 3",
        valueFlags: [],
        completions: { index in
            index == 0 ? ["SELECT"] : ["turns", "events", "writes", "recomputes", "edges", "leases", "states", "async"]
        },
        run: { session, arguments throws(InspectorError) in
            try session.query(arguments.text.trimmed.unquoted)
        })

    static let sqlite = ExportFormat(
        name: "sqlite", usage: "sqlite FILE", takesPath: true, coversCompanions: true, switches: ["--append"],
        summary: "sqlite writes the sql tables to FILE (--append adds the traces to a FILE it wrote before)"
    ) { session, arguments, destination throws(InspectorError) in
        let force = arguments.switches.contains("--force")
        if arguments.switches.contains("--append") {
            guard let destination else { throw InspectorError("--append goes with export sqlite FILE") }
            return try session.appendTables(to: destination, force: force)
        }
        guard let output = try OutputFile.checked(destination, force: force) else {
            throw InspectorError("export sqlite needs a FILE to write, e.g. export sqlite runs.db (or --to runs.db)")
        }
        let temporary = output.temporaryPath
        do throws(InspectorError) {
            _ = try TraceDatabase(sources: ([session] + session.companions).map(\.databaseSource), path: temporary)
        } catch {
            unlink(temporary)
            // The temporary file is the export's own business: the error names the target.
            guard error.kind != .interrupted, error.kind != .malformedTrace else { throw error }
            let reason = error.message.replacingOccurrences(of: "'\(temporary)'", with: "'\(output.path)'")
            throw InspectorError(reason, kind: .output)
        }
        session.writeWhenAnswered(PendingOutput(temporary: temporary, to: output))
        let count = 1 + session.companions.count
        let what = count == 1 ? "the sql tables" : "the sql tables of \(count) traces"
        return [.message("wrote \(what) to \(output.path); open it with sqlite3 \(output.path)")]
    }

    static let tables = ExportFormat(
        name: "tables", usage: "tables DIR", takesPath: true, coversCompanions: true,
        summary: "tables DIR writes them for every trace open as JSON Lines under DIR/TABLE/commit=C/run=R/ for "
            + "DuckDB, Spark or Trino"
    ) { session, arguments, destination throws(InspectorError) in
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
                    + "trace\(export.parts.count == 1 ? "" : "s") under \(destination) (\(written.files) files)")
        ]
    }

    static let html = ExportFormat(
        name: "html", valueFlags: ["--layout", "--layout-seconds", "--turns", "--trace"],
        synopsisFlags: " [--turns A..B] [--trace OTHER]",
        summary: "html is one self-contained page that draws the graph after any turn (--layout dot or layered; dot by "
            + "default when Graphviz is installed and the graph is small enough, with the layered layout after "
            + "--layout-seconds N, 10 by default), of the turns A..B with --turns (a recording over 20,000 turns exports the "
            + "20,000 around the cursor unless told), beside the recording OTHER with --trace; its folded families "
            + "unfold on a click, and --focus opens it showing only that state's neighbourhood (f in the page)"
    ) { session, arguments, destination throws(InspectorError) in
        let output = try OutputFile.checked(destination, force: arguments.switches.contains("--force"))
        return try session.exportHTML(arguments, to: output)
    }
}
