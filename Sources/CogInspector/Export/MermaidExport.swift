import CogCommandLine

/// Renders a `GraphView` as a Mermaid flowchart, which GitHub draws inside a ```mermaid block:
/// the same shapes, clusters, marks and legend as the DOT export.
public enum MermaidExport {
    /// The Mermaid text for `view`, titled `title`.
    public static func render(_ view: GraphView, title: String) -> String {
        var lines = ["---", "title: \(text(title))", "---", "flowchart LR"]
        let clustered = view.clusters
        for (index, cluster) in clustered.enumerated() {
            lines.append("  subgraph cluster\(index)[\"\(text(cluster.declaration))\"]")
            lines += cluster.nodes.map { "    " + declaration(of: $0) }
            lines.append("  end")
        }
        let clusteredIDs = Set(clustered.flatMap { $0.nodes.map(\.id) })
        lines += view.nodes.filter { !clusteredIDs.contains($0.id) }.map { "  " + declaration(of: $0) }
        var linkStyles: [String] = []
        for (index, edge) in view.edges.enumerated() {
            let count = edge.count > 1 ? "|\"×\(edge.count)\"|" : ""
            switch edge.change {
            case .added:
                lines.append("  n\(edge.producer) ==>\(count) n\(edge.consumer)")
                linkStyles.append("  linkStyle \(index) stroke:\(GraphStyle.addedColor),stroke-width:2px")
            case .removed:
                lines.append("  n\(edge.producer) -.->\(count) n\(edge.consumer)")
                linkStyles.append("  linkStyle \(index) stroke:\(GraphStyle.removedColor)")
            case nil:
                lines.append("  n\(edge.producer) -->\(count) n\(edge.consumer)")
            }
        }
        lines += linkStyles
        if view.isAnnotated {
            lines.append("  subgraph legend[\"legend\"]")
            for mark in GraphView.Mark.allCases {
                lines.append("    legend_\(mark.rawValue)[\"\(text(GraphStyle.meaning(mark)))\"]")
            }
            lines.append("    legend_notified[\"observers notified (double border)\"]")
            lines.append("  end")
            for mark in GraphView.Mark.allCases {
                let stroke =
                    mark == .created ? "stroke-width:3px" : mark == .gated ? "stroke-dasharray:4 3" : "stroke-width:1px"
                lines.append("  classDef \(mark.rawValue) fill:\(GraphStyle.fill(mark)),\(stroke)")
                let members = view.nodes.filter {
                    $0.marks.first(where: { $0 != .created }) == mark
                        || (mark == .created && $0.marks == [.created])
                }.map { "n\($0.id)" }
                lines.append(
                    "  class \((members + ["legend_\(mark.rawValue)"]).joined(separator: ",")) \(mark.rawValue)")
            }
            let notified = view.nodes.filter(\.isNotified).map { "n\($0.id)" } + ["legend_notified"]
            lines.append("  classDef notified stroke-width:4px,stroke-dasharray:1 2")
            lines.append("  class \(notified.joined(separator: ",")) notified")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One node with its shape: sources as parallelograms, automatic states rounded, async
    /// states as hexagons, reactions, watches and exports as flags, scopes as subroutines.
    private static func declaration(of node: GraphView.Node) -> String {
        let label = "\"" + GraphStyle.lines(of: node).map(text).joined(separator: "<br/>") + "\""
        let id = "n\(node.id)"
        switch node.kind {
        case .manual: return "\(id)[/\(label)/]"
        case .automatic: return "\(id)(\(label))"
        case .async: return "\(id){{\(label)}}"
        case .reaction, .watch, .export: return "\(id)>\(label)]"
        case .scope: return "\(id)[[\(label)]]"
        }
    }

    /// Text safe inside a quoted Mermaid label: characters Mermaid or its HTML would read as syntax
    /// become entity codes.
    static func text(_ raw: String) -> String {
        TerminalText.replacingCharacters(
            in: TerminalText.escape(raw), using: ["\"": "#quot;", "<": "#lt;", ">": "#gt;", "#": "#35;", "&": "#amp;"])
    }
}
