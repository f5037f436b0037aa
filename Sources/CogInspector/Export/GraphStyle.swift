import CogTraceFormat

/// How each kind of node and each mark looks, shared by the DOT and Mermaid exports so both
/// pictures read the same way, with the legend's wording.
package enum GraphStyle {
    /// The longest value shown in a node, in characters.
    package static let valueWidth = 40

    package static func dotShape(_ kind: GraphView.Kind) -> String {
        switch kind {
        case .manual: "box"
        case .automatic: "ellipse"
        case .async: "hexagon"
        case .reaction: "diamond"
        case .watch: "Mdiamond"
        case .export: "cds"
        case .scope: "component"
        }
    }

    /// A shape as a person would name it, for the legend.
    package static func shapeName(_ kind: GraphView.Kind) -> String {
        switch kind {
        case .manual: "box"
        case .automatic: "ellipse"
        case .async: "hexagon"
        case .reaction: "diamond"
        case .watch: "marked diamond"
        case .export: "arrow box"
        case .scope: "tabbed box"
        }
    }

    /// What a shape means, for the legend.
    package static func meaning(_ kind: GraphView.Kind) -> String {
        switch kind {
        case .manual: "manual source"
        case .automatic: "automatic (computed)"
        case .async: "async"
        case .reaction: "reaction"
        case .watch: "watch"
        case .export: "export (values stream)"
        case .scope: "scope"
        }
    }

    package static func fill(_ mark: GraphView.Mark) -> String {
        switch mark {
        case .written: "#fde68a"
        case .recomputed: "#bbf7d0"
        case .gated: "#e5e7eb"
        case .created: "#ffffff"
        case .ran: "#bfdbfe"
        }
    }

    package static func meaning(_ mark: GraphView.Mark) -> String {
        switch mark {
        case .written: "written in the turn"
        case .recomputed: "recomputed to a new value"
        case .gated: "recomputed to an equal value (gated)"
        case .created: "created in the turn"
        case .ran: "ran in the turn"
        }
    }

    package static let addedColor = "#16a34a"

    /// The pen width of an edge standing for `count` edges of a folded family: wider as the
    /// count grows, by its fourth root, up to 6, so a bundle of thousands stays a line.
    package static func width(ofEdgesCounting count: Int) -> String {
        let width = min(1 + (Double(max(count, 1)).squareRoot().squareRoot() - 1) * 0.6, 6)
        let tenths = Int((width * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
    package static let removedColor = "#dc2626"

    /// The node's text lines: its label, its value, and what holds it, as recorded; each exporter
    /// escapes them for its own syntax (`DOTExport.quoted`, `MermaidExport.text`).
    package static func lines(of node: GraphView.Node) -> [String] {
        var lines = [node.label]
        if let members = node.memberCount {
            lines.append("\(members) key\(members == 1 ? "" : "s")")
            if node.markedMembers > 0 { lines.append("\(node.markedMembers) marked in the turn") }
        }
        if let value = node.value { lines.append(shorten(value.text)) }
        if let status = node.status { lines.append("status: \(status)") }
        if !node.leases.isEmpty { lines.append(shorten("held by " + node.leases.joined(separator: ", "))) }
        if node.isPinned { lines.append("pinned by a UI read") }
        if !node.leaseChanges.isEmpty { lines.append(shorten("leases " + node.leaseChanges.joined(separator: " "))) }
        return lines
    }

    private static func shorten(_ text: String) -> String {
        text.count > valueWidth ? String(text.prefix(valueWidth - 1)) + "…" : text
    }
}
