import CogTraceFormat

/// Renders a `GraphView` as a node-link JSON document for other tools (D3, NetworkX, a notebook):
/// `{"turn":…,"nodes":[…],"links":[{"source":producer,"target":consumer,…}]}`.
public enum GraphJSONExport {
    /// The JSON document for `view`, titled `title`.
    public static func render(_ view: GraphView, title: String) -> String {
        document(view, title: title).jsonText + "\n"
    }

    static func document(_ view: GraphView, title: String) -> JSONValue {
        .object([
            ("title", .string(title)), ("turn", view.turn.map(JSONValue.int) ?? .null), ("directed", .bool(true)),
            ("nodes", .array(view.nodes.map(node))),
            (
                "links",
                .array(
                    view.edges.map { edge in
                        .object([
                            ("source", .int(edge.producer)), ("target", .int(edge.consumer)),
                            ("change", edge.change.map { .string($0.rawValue) } ?? .null),
                        ])
                    })
            ),
        ])
    }

    private static func node(_ node: GraphView.Node) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .int(node.id)), ("kind", .string(node.kind.rawValue)), ("label", .string(node.label)),
            ("declaration", node.declaration.map(JSONValue.string) ?? .null),
            ("key", node.key.map(JSONValue.string) ?? .null),
            ("value", node.value?.jsonValue ?? .null), ("leases", .array(node.leases.map(JSONValue.string))),
            ("pinned", .bool(node.isPinned)), ("status", node.status.map(JSONValue.string) ?? .null),
        ]
        if !node.marks.isEmpty || node.isNotified || !node.leaseChanges.isEmpty {
            members.append(
                (
                    "turn",
                    .object([
                        ("marks", .array(node.marks.map { .string($0.rawValue) })),
                        ("notified", .bool(node.isNotified)),
                        ("leaseChanges", .array(node.leaseChanges.map(JSONValue.string))),
                    ])
                ))
        }
        return .object(members)
    }
}
