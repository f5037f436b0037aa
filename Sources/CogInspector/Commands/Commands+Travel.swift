import CogTraceFormat

extension CommandCatalog {
    static let travel: [CommandSpec] = [
        CommandSpec(
            name: "turns", aliases: ["ls"], group: "travel",
            synopsis: "turns [A..B] [--touching STATE|REACTION] [--name PATTERN]",
            summary: "list turns: number, name, origin, cause (the turn whose reaction, watch or task began "
                + "this one; - when an op, the assembly or an async result began it) and how many events; "
                + "--touching keeps the turns with an event about that state or reaction (a write, a run, an "
                + "edge or a lease)",
            example: "turns 1..10 --touching weather.isNiceHere", valueFlags: ["--touching", "--name"]
        ) { session, arguments throws(InspectorError) in
            let range = try arguments.optional("range").map { text throws(InspectorError) in
                try CommandArguments.range(text)
            }
            let touching = try arguments.options["--touching"].map { label throws(InspectorError) in
                try session.resolveSubject(label).ids
            }
            let listing = TurnListing(
                session: session, range: range, touching: touching,
                namePattern: arguments.options["--name"].map(TextMatcher.init))
            guard session.streamsTables else {
                var rows: [[Cell]] = []
                var warnings: [Report] = []
                for position in session.turns.indices {
                    if position % CommandContext.interruptCheckStep == 0, session.interruptRequested() {
                        throw .interrupted
                    }
                    listing.add(position, to: &rows, warnings: &warnings)
                }
                guard !rows.isEmpty else { return listing.whenEmpty }
                return [.table(columns: TurnListing.columns, rows: session.markingFailures(in: rows, range: range))]
                    + warnings
            }
            return [listing.streamed()]
        },
        CommandSpec(
            name: "turn", aliases: ["t"], group: "travel", synopsis: "turn N",
            summary: "every event of turn N in order, grouped readably",
            example: "turn 6", valueFlags: []
        ) { session, arguments throws(InspectorError) in
            let sequence = try CommandArguments.turn(try arguments.single("turn number"))
            try session.requireTurn(sequence)
            return try session.describeTurn(sequence)
        },
        CommandSpec(
            name: "goto", aliases: ["g"], group: "travel", synopsis: "goto N",
            summary: "move the cursor to turn N", example: "goto 6", valueFlags: []
        ) { session, arguments throws(InspectorError) in
            try session.move(to: try CommandArguments.turn(try arguments.single("turn number")))
            return try session.whereReport()
        },
        CommandSpec(
            name: "step", aliases: ["s", "next", "n"], group: "travel", synopsis: "step [K]",
            summary: "move the cursor K turns forward (1 by default)", example: "step 2", valueFlags: []
        ) { session, arguments throws(InspectorError) in
            let before = session.cursor
            session.step(
                try arguments.optional("count").map { text throws(InspectorError) in
                    try CommandArguments.number(text, "a count")
                } ?? 1)
            return try session.edgeNote(before: before, forward: true) + session.whereReport()
        },
        CommandSpec(
            name: "back", aliases: ["b", "prev", "p"], group: "travel", synopsis: "back [K]",
            summary: "move the cursor K turns back (1 by default)", example: "back", valueFlags: []
        ) { session, arguments throws(InspectorError) in
            let count =
                try arguments.optional("count").map { text throws(InspectorError) in
                    try CommandArguments.number(text, "a count")
                } ?? 1
            let before = session.cursor
            session.step(count == Int.min ? Int.max : -count)
            return try session.edgeNote(before: before, forward: false) + session.whereReport()
        },
        CommandSpec(
            name: "first", aliases: [], group: "travel", synopsis: "first",
            summary: "move the cursor to the first turn", example: "first", valueFlags: []
        ) { session, _ throws(InspectorError) in
            if let first = session.turns.first { try session.move(to: first) }
            return try session.whereReport()
        },
        CommandSpec(
            name: "last", aliases: [], group: "travel", synopsis: "last",
            summary: "move the cursor to the last turn", example: "last", valueFlags: []
        ) { session, _ throws(InspectorError) in
            if let last = session.turns.last { try session.move(to: last) }
            return try session.whereReport()
        },
        CommandSpec(
            name: "where", aliases: ["w"], group: "travel", synopsis: "where",
            summary: "the cursor's turn", example: "where", valueFlags: []
        ) { session, _ throws(InspectorError) in
            try session.whereReport()
        },
        CommandSpec(
            name: "play", aliases: [], group: "travel", synopsis: "play [A..B] [--delay MS]",
            summary: "step through turns A..B, printing each, waiting MS milliseconds between them (0 by default)",
            example: "play 1..8", valueFlags: ["--delay"]
        ) { session, arguments throws(InspectorError) in
            let range =
                try arguments.optional("range").map { text throws(InspectorError) in
                    try CommandArguments.range(text)
                } ?? TurnNumber(Int.min)...TurnNumber(Int.max)
            let delay =
                try arguments.options["--delay"].map { text throws(InspectorError) in
                    try CommandArguments.number(text, "a delay")
                } ?? 0
            guard (0...10_000).contains(delay) else {
                throw InspectorError("a delay is 0 to 10000 milliseconds, not \(delay)")
            }
            let turns = session.turns.filter { range.contains($0) }
            guard !turns.isEmpty else { return [.message(session.emptyRangeMessage(range))] }
            return [.playback(Playback(turns: turns, delay: .milliseconds(delay)))]
        },
    ]
}

extension CommandContext {
    /// Moves the cursor to `sequence`, one step of a `play`, and shows that turn as `turn N` does:
    /// its heading, then its events grouped.
    func playStep(_ sequence: TurnNumber) throws(InspectorError) -> [Report] {
        try move(to: sequence)
        return try describeTurn(sequence)
    }

    /// A note when `step` or `back` could not move because the cursor is at that end already.
    func edgeNote(before: TurnNumber, forward: Bool) -> [Report] {
        guard cursor == before, !turns.isEmpty else { return [] }
        return [
            .message(
                forward
                    ? "already at the last turn; nothing to step to" : "already at the first turn; nothing before it")
        ]
    }

    func whereReport() throws(InspectorError) -> [Report] {
        guard cursor > 0 else { return [.message("the trace has no turns")] }
        let turn = try turn(cursor)
        return [.message("turn \(cursor) of \(turns.first ?? 0)..\(turns.last ?? 0): \(turn.name) (\(turn.origin))")]
    }
}

extension TraceEvent {
    /// Whether the event concerns `state` (as its subject or as a producer).
    func touches(_ subjects: Set<NodeID>) -> Bool {
        if let state, subjects.contains(state) { return true }
        if let registration, subjects.contains(registration) { return true }
        if let edgeProducer, subjects.contains(edgeProducer) { return true }
        if case .dependencies(_, let producers) = self { return producers.contains(where: subjects.contains) }
        return false
    }
}
