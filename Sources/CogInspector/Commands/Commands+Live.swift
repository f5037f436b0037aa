import CogTraceFormat

extension CommandCatalog {
    static let live: [CommandSpec] = [
        CommandSpec(
            name: "follow", aliases: [], group: "live", synopsis: "follow",
            summary: "keep reading the trace's file as the app writes it: new turns arrive at the prompt, the cursor "
                + "stays on the newest until you travel, and 'last' rejoins it (coginspect --follow FILE starts so)",
            example: "follow", valueFlags: [], scope: .session
        ) { session, arguments throws(InspectorError) in
            guard arguments.positional.isEmpty else { throw InspectorError("follow takes no arguments") }
            return try session.startFollowing()
        },
        CommandSpec(
            name: "watch", aliases: [], group: "live", synopsis: "watch [EXPR]",
            summary: "print a line each time EXPR changes in an arriving turn: a state (or STATE.field) reports its "
                + "value, a condition as in 'bisect' its truth; alone, the watches and their values",
            example: "watch weather.isNiceHere", valueFlags: [], scope: .session
        ) { session, arguments throws(InspectorError) in
            let text = arguments.text.trimmed
            return text.isEmpty ? session.watchList() : try session.addWatch(text)
        },
        CommandSpec(
            name: "unwatch", aliases: [], group: "live", synopsis: "unwatch EXPR|all",
            summary: "stop watching EXPR (as 'watch' was given it), or every expression", example: "unwatch all",
            valueFlags: [], scope: .session
        ) { session, arguments throws(InspectorError) in
            let text = arguments.text.trimmed
            guard !text.isEmpty else { throw InspectorError("unwatch needs an expression 'watch' lists, or 'all'") }
            return try session.removeWatch(text)
        },
    ]
}
