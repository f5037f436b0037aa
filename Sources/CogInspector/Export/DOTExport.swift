import CogCommandLine

/// Renders a `GraphView` as a Graphviz DOT digraph: shapes by kind, keyed states of one
/// declaration in a cluster, the annotated turn's effects as fills and edge colours, and a legend.
public enum DOTExport {
    /// The DOT text for `view`, titled `title`.
    public static func render(_ view: GraphView, title: String) -> String {
        var lines = ["digraph cog {"]
        lines.append("  graph [rankdir=LR, fontname=\"Helvetica\", labelloc=t, label=\(quoted(title))];")
        lines.append("  node [fontname=\"Helvetica\", fontsize=10];")
        lines.append("  edge [color=\"#555555\"];")
        let clustered = view.clusters
        for (index, cluster) in clustered.enumerated() {
            lines.append("  subgraph cluster_\(index) {")
            lines.append("    label=\(quoted(cluster.declaration)); style=rounded; color=\"#9ca3af\"; fontsize=10;")
            lines += cluster.nodes.map { "    " + statement(for: $0) }
            lines.append("  }")
        }
        let clusteredIDs = Set(clustered.flatMap { $0.nodes.map(\.id) })
        lines += view.nodes.filter { !clusteredIDs.contains($0.id) }.map { "  " + statement(for: $0) }
        for edge in view.edges {
            var attributes: [String] = []
            switch edge.change {
            case .added: attributes = ["color=\"\(GraphStyle.addedColor)\"", "penwidth=2"]
            case .removed: attributes = ["color=\"\(GraphStyle.removedColor)\"", "style=dashed"]
            case nil: break
            }
            if edge.count > 1 {
                attributes.append("label=\"×\(edge.count)\"")
                if edge.change == nil {
                    attributes.append("penwidth=\(GraphStyle.width(ofEdgesCounting: edge.count))")
                }
            }
            lines.append(
                "  n\(edge.producer) -> n\(edge.consumer)"
                    + (attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]") + ";")
        }
        lines += legend(view)
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func statement(for node: GraphView.Node) -> String {
        var attributes = [
            "shape=\(GraphStyle.dotShape(node.kind))",
            "label=\(quoted(GraphStyle.lines(of: node).joined(separator: "\n")))",
        ]
        var styles: [String] = []
        if let mark = node.marks.first(where: { $0 != .created }) {
            styles.append("filled")
            attributes.append("fillcolor=\"\(GraphStyle.fill(mark))\"")
            if mark == .gated { styles.append("dashed") }
        }
        if node.marks.contains(.created) { attributes.append("penwidth=2") }
        if node.kind == .scope || node.kind == .automatic { styles.append("rounded") }
        if !styles.isEmpty { attributes.append("style=\(quoted(styles.joined(separator: ",")))") }
        if node.isNotified { attributes.append("peripheries=2") }
        return "n\(node.id) [\(attributes.joined(separator: ", "))];"
    }

    /// One table explaining the shapes present and, for an annotated turn, the fills, borders
    /// and edge colours: a single node, so it stays small beside any graph.
    private static func legend(_ view: GraphView) -> [String] {
        var rows = ["<tr><td colspan=\"2\"><b>legend</b></td></tr>"]
        var kinds: [GraphView.Kind] = []
        for node in view.nodes where !kinds.contains(node.kind) { kinds.append(node.kind) }
        for kind in kinds {
            rows.append(
                "<tr><td>\(GraphStyle.shapeName(kind))</td><td align=\"left\">\(GraphStyle.meaning(kind))</td></tr>")
        }
        if view.isAnnotated {
            for mark in GraphView.Mark.allCases {
                let sample =
                    switch mark {
                    case .created: "<td>bold border</td>"
                    case .gated: "<td bgcolor=\"\(GraphStyle.fill(mark))\">dashed border</td>"
                    default: "<td bgcolor=\"\(GraphStyle.fill(mark))\"> </td>"
                    }
                rows.append("<tr>\(sample)<td align=\"left\">\(GraphStyle.meaning(mark))</td></tr>")
            }
            rows.append("<tr><td>double border</td><td align=\"left\">observers notified</td></tr>")
            rows.append(
                "<tr><td><font color=\"\(GraphStyle.addedColor)\"><b>━━▶</b></font></td><td align=\"left\">edge added</td></tr>"
            )
            rows.append(
                "<tr><td><font color=\"\(GraphStyle.removedColor)\">- - ▶</font></td><td align=\"left\">edge removed</td></tr>"
            )
        }
        if view.nodes.contains(where: { $0.memberCount != nil }) {
            rows.append(
                "<tr><td>decl[*]</td><td align=\"left\">a folded keyed family (--unfold shows its states)</td></tr>")
            rows.append("<tr><td>×N</td><td align=\"left\">one arrow for N edges of its members</td></tr>")
        }
        rows.append("<tr><td colspan=\"2\">an arrow from A to B: B reads A</td></tr>")
        let table =
            "<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" cellpadding=\"3\">" + rows.joined() + "</table>"
        return ["  legend [shape=plaintext, fontsize=9, label=<\(table)>];"]
    }

    /// A DOT double-quoted string: quotes and backslashes escaped, line breaks as `\n`.
    /// A DOT string: each line's control characters shown as escapes (no byte of a trace reaches a
    /// terminal or a renderer raw), quotes and backslashes escaped, lines joined with DOT's `\n`.
    static func quoted(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            TerminalText.replacingCharacters(
                in: TerminalText.escape(String(line)), using: ["\"": "\\\"", "\\": "\\\\"])
        }
        return "\"" + lines.joined(separator: "\\n") + "\""
    }
}
