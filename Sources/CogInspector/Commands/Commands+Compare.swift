import CogTraceFormat

extension CommandCatalog {
    static let compare: [CommandSpec] = [
        CommandSpec(
            name: "diff", aliases: [], group: "compare",
            synopsis: "diff A B [--only ASPECTS] | diff --trace OTHER [--from N]",
            summary: "what differs between the graph after turn A and after turn B (one turn: from the cursor); "
                + "ASPECTS is a comma list of values, edges, leases, async, lifecycle. With --trace, compare this "
                + "recording with OTHER step by step (each turn, then the work after it, N+), every event kind, states "
                + "by label: the first step where they part ways with both sides' values, then the later ones",
            example: "diff 8 9 --only values,edges", valueFlags: ["--only", "--trace", "--from"]
        ) { session, arguments throws(InspectorError) in
            if let other = arguments.options["--trace"] {
                guard arguments.positional.isEmpty, arguments.options["--only"] == nil else {
                    throw InspectorError("diff --trace takes no turns and no --only; use --from N to start later")
                }
                let start = try arguments.options["--from"].map { text throws(InspectorError) in
                    try CommandArguments.turn(text)
                }
                return try session.compareReport(with: other, from: start)
            }
            guard arguments.options["--from"] == nil else { throw InspectorError("--from goes with --trace OTHER") }
            let (from, to) = try session.diffTurns(arguments.positional)
            let aspects = try arguments.options["--only"].map { text throws(InspectorError) in try diffAspects(text) }
            let diff = try session.diff(from: from, to: to)
            return session.diffReport(aspects.map { diff.keeping($0) } ?? diff, from: from, to: to)
        },
        CommandSpec(
            name: "bisect", aliases: [], group: "compare", synopsis: "bisect EXPR",
            summary: "the first turn where EXPR holds, evaluating only the turns that touch its states, each reached "
                + "from the nearest keyframe; moves the cursor there",
            example: "bisect 'weather.isNice[10001] == true'", valueFlags: []
        ) { session, arguments throws(InspectorError) in
            let expression = try session.expression(arguments.text)
            guard let found = try session.bisect(expression) else {
                return [
                    .message("\(arguments.text.trimmed.unquoted) holds at no turn of this recording"),
                    .verdict(.notFound),
                ]
            }
            try session.move(to: found.turn)
            let turn = try session.turn(found.turn)
            return [
                .message(
                    "turn \(found.turn) (\(turn.name)) is the first where it holds (\(found.evaluations) of "
                        + "\(session.turns.count) turns evaluated); the cursor is there now")
            ]
        },
        CommandSpec(
            name: "expect", aliases: [], group: "compare", synopsis: "expect EXPR",
            summary: "check EXPR at the cursor; in a batch run a false expectation exits with status 3",
            example: "expect 'weather.forecast[10001].weather.temperatureF > 90'", valueFlags: []
        ) { session, arguments throws(InspectorError) in
            let expression = try session.expression(arguments.text)
            let turn = session.cursor > 0 ? try session.turn(session.cursor) : nil
            let graph = try session.graph()
            let actual = expression.states.map { reference in
                let value = graph.states[reference.id].map { $0.value?.text ?? "nil" } ?? "does not exist"
                return "\(reference.label) = \(value)"
            }.joined(separator: ", ")
            try session.refuseTextOnlyField(among: expression.fieldReferences, in: graph, at: session.cursor)
            guard expression.holds(in: graph, turn: turn) else {
                throw InspectorError(
                    "expectation failed at turn \(session.cursor): \(arguments.text.trimmed.unquoted) (\(actual))",
                    kind: .expectation)
            }
            return [.message("holds at turn \(session.cursor): \(arguments.text.trimmed.unquoted)")]
        },
    ]

    private static func diffAspects(_ text: String) throws(InspectorError) -> Set<GraphDiff.Aspect> {
        var aspects = Set<GraphDiff.Aspect>()
        for name in text.split(separator: ",") {
            guard let aspect = GraphDiff.Aspect(rawValue: String(name)) else {
                let known = GraphDiff.Aspect.allCases.map(\.rawValue).joined(separator: ", ")
                throw InspectorError("unknown diff aspect '\(name)'; expected \(known)")
            }
            aspects.insert(aspect)
        }
        return aspects
    }
}
