import CogTraceFormat
import CogTraceStore
import Foundation

extension CommandCatalog {
    /// `export`, whose synopsis, description and format options each catalog writes from the
    /// formats it holds (`exportCommand`), so they are placeholders here.
    static let export: [CommandSpec] = [
        CommandSpec(
            name: "export", aliases: ["x"], group: "export",
            synopsis: "export FORMAT", summary: "",
            example: "export dot --turn 9 --focus weather.isNiceHere --to turn9.dot",
            valueFlags: ["--turn", "--focus", "--depth", "--unfold", "--to"], switches: ["--force"]
        ) { session, arguments throws(InspectorError) in
            try session.export(arguments)
        }
        .fitting { spec, catalog in catalog.exportCommand(spec) }
        .runningBesideCompanions { catalog in
            catalog.exportFormats.filter(\.coversCompanions).map {
                MultiTraceForm(argument: $0.name, usage: "export \($0.usage)")
            }
        }
    ]

    /// The formats the engine writes itself: the graph at one turn, and the whole timeline.
    static let graphFormats: [ExportFormat] =
        ["dot", "mermaid", "json"].map { name in
            ExportFormat(name: name, summary: nil) { session, arguments, destination throws(InspectorError) in
                // Checked before any work, so a refused destination costs nothing and loses nothing.
                let output = try OutputFile.checked(destination, force: arguments.switches.contains("--force"))
                var view = try session.graphView(arguments)
                if name == "json" {
                    guard arguments.options["--unfold"] == nil else {
                        throw InspectorError("export json lists every state; --unfold goes with export dot|mermaid")
                    }
                } else {
                    // The focused state is what was asked about: it is never folded into its family.
                    let focused = try session.focus(arguments).map { focus throws(InspectorError) in
                        Set([try session.resolveState(focus.label)])
                    }
                    view = view.folded(
                        unfolding: try session.unfolding(arguments.options["--unfold"], in: view),
                        keeping: focused ?? [])
                }
                let title = session.exportTitle(for: view)
                let text =
                    switch name {
                    case "dot": DOTExport.render(view, title: title)
                    case "mermaid": MermaidExport.render(view, title: title)
                    default: GraphJSONExport.render(view, title: title)
                    }
                return try session.deliver(
                    text, to: output, summary: "\(name) export, \(view.nodes.count) nodes and \(view.edges.count) edges"
                )
            }
        } + [
            ExportFormat(name: "chrome", summary: nil) { session, arguments, destination throws(InspectorError) in
                let output = try OutputFile.checked(destination, force: arguments.switches.contains("--force"))
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
                return try session.deliver(text, to: output, summary: "chrome trace of \(session.turns.count) turns")
            }
        ]

    /// The `export` command as this catalog's formats make it: their names in the synopsis, the
    /// options each adds, and each one's clause of the description.
    func exportCommand(_ spec: CommandSpec) -> CommandSpec {
        let names = exportFormats.map(\.name).joined(separator: "|")
        let flags = exportFormats.map(\.synopsisFlags).joined()
        let switches = exportFormats.flatMap { $0.switches.sorted() }.map { "|\($0)" }.joined()
        let clauses = exportFormats.compactMap(\.summary).map { "; \($0)" }.joined()
        return CommandSpec(
            name: spec.name, aliases: spec.aliases, group: spec.group,
            synopsis:
                "export \(names) [--turn N] [--focus STATE [--depth D]] [--unfold FAMILY|all]\(flags) [--to FILE [--force\(switches)]]",
            summary: "the graph at the cursor (or after turn N, marking what that turn did) as Graphviz DOT, a Mermaid "
                + "flowchart or node-link JSON; --focus keeps the states within D edges of one (2 by default); a keyed "
                + "family of more than \(GraphView.defaultFoldThreshold) states is one node in dot and mermaid, its "
                + "edges counted, unless --unfold names it (a comma-separated list, or all). chrome "
                + "is the whole recording as a Perfetto/chrome://tracing timeline\(clauses). "
                + "Without --to the document goes to standard output; an existing FILE is replaced only with --force",
            example: spec.example,
            valueFlags: spec.valueFlags.union(exportFormats.flatMap(\.valueFlags)),
            switches: spec.switches.union(exportFormats.flatMap(\.switches)), completions: spec.completions,
            scope: spec.scope, run: spec.run
        )
        .fitting(spec.fitted)
        .runningBesideCompanions(spec.multiTraceForms)
    }
}

extension CommandContext {
    /// `export FORMAT`: picks the catalog's format, refuses the options another format owns, and
    /// hands it the destination.
    func export(_ arguments: CommandArguments) throws(InspectorError) -> [Report] {
        guard let name = arguments.positional.first else {
            throw InspectorError("export needs a format: \(catalog.exportFormatList)")
        }
        let format = try catalog.exportFormat(name)
        let destination = arguments.options["--to"] ?? (format.takesPath ? arguments.positional.dropFirst().first : nil)
        guard
            arguments.positional.count == 1
                || (format.takesPath && arguments.positional.count == 2 && arguments.options["--to"] == nil)
        else {
            throw InspectorError("export takes one format; see 'help export'")
        }
        let others = catalog.exportFormats.filter { $0.name != format.name }
        let flags = others.flatMap { $0.valueFlags.subtracting(format.valueFlags) }.filter {
            arguments.options[$0] != nil
        }
        let switches = others.flatMap { $0.switches.subtracting(format.switches) }.filter {
            arguments.switches.contains($0)
        }
        if let flag = (flags + switches).sorted().first {
            let owners = others.filter { $0.valueFlags.contains(flag) || $0.switches.contains(flag) }
            throw InspectorError(
                "\(flag) goes with " + owners.map { "export \($0.usage)" }.joined(separator: " or "))
        }
        return try format.run(self, arguments, destination)
    }
}

extension CommandContext {
    /// The graph an export draws: after `--turn N` with that turn's effects marked, or at the
    /// cursor; narrowed by `--focus`/`--depth`.
    package func graphView(_ arguments: CommandArguments) throws(InspectorError) -> GraphView {
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
        guard let focus = try focus(arguments) else { return view }
        let center = try resolveState(focus.label)
        guard view.nodes.contains(where: { $0.id == center }) else {
            throw InspectorError("\(focus.label) does not exist at turn \(sequence); 'state' lists the live states")
        }
        return view.focused(on: center, depth: focus.depth)
    }

    /// The state `--focus` names (checked to be one) and how many edges `--depth` reaches from
    /// it (2 by default); nil without `--focus`.
    package func focus(_ arguments: CommandArguments) throws(InspectorError) -> (label: String, depth: Int)? {
        guard let label = arguments.options["--focus"] else {
            guard arguments.options["--depth"] == nil else { throw InspectorError("--depth goes with --focus STATE") }
            return nil
        }
        _ = try resolveState(label)
        let depth =
            try arguments.options["--depth"].map { text throws(InspectorError) in
                try CommandArguments.number(text, "a depth")
            } ?? 2
        guard depth >= 0 else { throw InspectorError("a depth must be 0 or more, not \(depth)") }
        return (label, depth)
    }

    package func exportTitle(for view: GraphView) -> String {
        guard let turn = view.turn else { return trace.header.title }
        let name = (try? self.turn(turn).name).map { " (\($0))" } ?? ""
        return "\(trace.header.title): \(view.isAnnotated ? "turn" : "after turn") \(turn)\(name)"
    }

    /// Prints a document, or writes it to `path` and says so.
    package func deliver(_ text: String, to output: OutputFile?, summary: String) throws(InspectorError) -> [Report] {
        guard let output else { return [.document(text)] }
        writeWhenAnswered(PendingOutput(Array(text.utf8), to: output))
        return [.message("wrote \(summary) to \(output.path)")]
    }
}

extension CommandContext {
    /// The families `--unfold` keeps as their states: `all`, or declarations separated by
    /// commas (`weather.forecast` or `weather.forecast[*]`), each one a family of `view`.
    package func unfolding(_ text: String?, in view: GraphView) throws(InspectorError) -> GraphView.Unfolding {
        guard let text else { return .families([]) }
        if text == "all" { return .all }
        let known = view.families.map(\.declaration)
        var names: Set<String> = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            var name = part.trimmingCharacters(in: .whitespaces)
            if name.hasSuffix("[*]") { name.removeLast(3) }
            guard known.contains(name) else {
                let list =
                    known.isEmpty
                    ? "this graph has no keyed family" : "its families are " + known.joined(separator: ", ")
                if let suggestion = closestMatch(to: name, among: known) {
                    throw InspectorError("unknown family '\(name)'; did you mean '\(suggestion)'? (\(list), or all)")
                }
                throw InspectorError("unknown family '\(name)'; \(list), or all")
            }
            names.insert(name)
        }
        return .families(names)
    }
}
