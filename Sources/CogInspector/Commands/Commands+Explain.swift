import CogTraceFormat
import CogTraceStore

extension CommandCatalog {
    static let explain: [CommandSpec] = [
        CommandSpec(
            name: "why", aliases: ["y"], group: "explain", synopsis: "why STATE[.FIELD]|REACTION [@TURN]",
            summary: "why the value holds: the step that decided it, with the value before and after, then each "
                + "cause (the dependency that changed; every input a first run read) back to writes, creations, "
                + "seeds, async results or values held since the recording began; --depth N shows N levels "
                + "(default: one screen), --all follows every input of every run; @TURN asks about another turn "
                + "without moving",
            example: "why weather.isNiceHere", valueFlags: ["--depth"], switches: ["--all"]
        ) { session, arguments throws(InspectorError) in
            let question = try arguments.subjectQuestion(in: session)
            var options = WhyOptions(
                turn: question.turn, field: question.field, all: arguments.switches.contains("--all"))
            if let depth = arguments.options["--depth"] {
                let levels = try CommandArguments.number(depth, "--depth")
                guard levels >= 0 else { throw InspectorError("--depth must be 0 or more, not '\(depth)'") }
                options.depth = levels
            }
            let turn = question.turn ?? session.cursor
            switch question.subject {
            case .state(let id):
                if let absent = session.absence(of: id, at: turn) { return [.message(absent)] }
                return [.causalChain(session.causalChain(of: id, options))] + session.unansweredWork(of: id, at: turn)
            case .registration(let name, let ids, _):
                guard let chain = session.registrationChain(name: name, ids: ids, options) else {
                    return [.message("\(name) has not run by turn \(turn)")]
                }
                return [.causalChain(chain)]
            }
        },
        CommandSpec(
            name: "history", aliases: ["hist"], group: "explain", synopsis: "history STATE[.FIELD]|REACTION [@TURN]",
            summary: "every value a state held, the turn that changed it, and why in one line (the sentence `why` "
                + "gives); STATE.FIELD lists only the turns where that field changed; for a reaction, watch, scope "
                + "or task, every run (and each time a watch fired) with what it read and what changed; @TURN stops "
                + "at that turn",
            example: "history Weather.niceAlert", valueFlags: [], scope: .wholeRecording
        ) { session, arguments throws(InspectorError) in
            let question = try arguments.subjectQuestion(in: session)
            guard case .state(let id) = question.subject else {
                guard case .registration(let name, let ids, let kind) = question.subject else { return [] }
                return session.registrationHistory(name: name, ids: ids, kind: kind, through: question.turn)
            }
            guard session.streamsTables else {
                return session.stateHistory(of: id, field: question.field, through: question.turn)
            }
            return session.streamedStateHistory(of: id, field: question.field, through: question.turn)
        },
    ]
}

/// What `why`, `history` and `get` are asked about: a state (with a field path) or a
/// registration, at the cursor or at `@TURN`.
struct SubjectQuestion {
    let subject: Subject
    let field: String?
    let turn: TurnNumber?
}

extension CommandArguments {
    /// The subject word and an optional `@TURN` (in either order), resolved: a state label, a
    /// state label followed by a field path (`weather.forecast[10001].temperatureF`), or a
    /// reaction's name.
    func subjectQuestion(in session: CommandContext) throws(InspectorError) -> SubjectQuestion {
        let turnWords = positional.filter { $0.hasPrefix("@") }
        let words = positional.filter { !$0.hasPrefix("@") }
        guard words.count == 1, turnWords.count <= 1 else {
            throw InspectorError("\(command) needs one state and at most one @TURN; see 'help \(command)'")
        }
        var turn: TurnNumber?
        if let word = turnWords.first {
            var digits = word.dropFirst()
            if digits.hasSuffix("+") { digits = digits.dropLast() }
            guard let number = Int(digits) else {
                throw InspectorError("'\(word)' is not a turn; write @N, e.g. @12")
            }
            try session.requireTurn(TurnNumber(number))
            turn = TurnNumber(number)
        }
        let word = words[0]
        if session.trace.stateID(labelled: word) == nil,
            let (label, path) = TraceExpression.StateReference.split(
                word, isLabel: { session.trace.stateID(labelled: $0) != nil }), !path.isEmpty
        {
            guard JSONPath(path).components != nil else {
                throw InspectorError("'\(path)' is not a field path; write .name or [index], e.g. '.temperatureF'")
            }
            return SubjectQuestion(subject: .state(try session.resolveState(label)), field: path, turn: turn)
        }
        return SubjectQuestion(subject: try session.resolveSubject(word), field: nil, turn: turn)
    }
}

extension CommandContext {
    /// Why `state` has no value to explain at turn `turn`: not created yet. Nil when it has one,
    /// or had one before it was released (`why` then explains that last value).
    func absence(of state: NodeID, at turn: TurnNumber) -> String? {
        // The graph the trace starts from is kept, so it is asked first; only a state created
        // later needs a walk back.
        guard (try? graph(after: (turns.first ?? turn) - 1))?.states[state] == nil,
            lastEntry(of: state, before: .through(turn), kinds: Self.valueKinds, where: { $0.state == state }) == nil
        else { return nil }
        return "\(label(state)) does not exist at turn \(turn): it was not created by then"
    }

    /// Every value `state` (or one field of it) held up to turn `limit` (the end when nil), the
    /// turn that set it, and why, in the words `why` uses for that step.
    func stateHistory(of id: NodeID, field: String?, through limit: TurnNumber?) -> [Report] {
        let timeline = timeline(covering: [id])
        let all = limit.map { timeline.entries(of: id, through: $0) } ?? timeline.entries(of: id)
        let path = field.map(JSONPath.init)
        // A slice at a time, as the streamed answer reads them: a busy state's decoded events
        // all at once were most of what a long history held.
        var rows: [[Cell]] = []
        var textOnlyAt: TurnNumber?
        var start = all.startIndex
        while start < all.endIndex {
            // Cut short, the answer is dropped (`execute` checks again and throws `interrupted`).
            if interruptRequested() { break }
            let slice = all[start..<min(all.endIndex, start + Self.streamRowBatch)]
            start = slice.endIndex
            // Only these kinds give a state a value or take it away; the rest are not decoded.
            let entries = slice.decoded(kinds: ["write", "seeded", "created", "recompute", "released"])
            timeline.readHeadings(of: entries.filter { $0.event?.setsValue(of: id) == true }.map(\.turn))
            rows += entries.compactMap { historyRow(of: id, at: $0, path: path) }
            if path != nil, textOnlyAt == nil {
                textOnlyAt = entries.first { setsTextOnlyValue(of: id, at: $0) }?.turn
            }
        }
        let table: [Report] = rows.isEmpty ? [] : [.table(columns: Self.historyColumns, rows: rows)]
        return table
            + historyTrailer(
                of: id, field: field, hasRows: !rows.isEmpty, usesAfterTurn: rows.contains(where: Self.isAfterTurn),
                textOnlyAt: textOnlyAt)
    }

    /// The columns of a state's `history`.
    static let historyColumns = ["turn", "value", "why"]

    /// The row `entry` gives `state`'s history (of the field at `path`, when given): nil for an
    /// event that set no value (or left the field as it was).
    func historyRow(of id: NodeID, at entry: StateTimeline.Entry, path: JSONPath?) -> [Cell]? {
        let turn = Cell.turn(TurnReference(entry.turn, afterTurn: entry.isIdle))
        guard let event = entry.event, event.setsValue(of: id) else {
            if case .stateReleased(_, let reason) = entry.event {
                return [turn, .absent, .text("released (\(reason))")]
            }
            return nil
        }
        var value = event.newValue
        if let path {
            // A value recorded as text only has no fields: the trailer says so (`historyTrailer`).
            if event.newValue.map({ $0.json == nil }) == true { return nil }
            let old = event.oldValue.flatMap { Self.piece(of: $0, at: path) }
            value = event.newValue.flatMap { Self.piece(of: $0, at: path) }
            if event.oldValue != nil, old == value { return nil }
        }
        return [turn, .value(value), .text(causalStep(of: id, decidedAt: entry).explanation)]
    }

    /// Whether `entry` gives `id` a value recorded as text only, which has no fields to show.
    func setsTextOnlyValue(of id: NodeID, at entry: StateTimeline.Entry) -> Bool {
        guard let event = entry.event, event.setsValue(of: id), let value = event.newValue else { return false }
        return value.json == nil
    }

    /// What follows a state's history: why it is empty, or what `N+` means when a row uses it.
    /// `textOnlyAt` is the first turn that gave the state a value recorded as text only, when a
    /// field was asked for: its history cannot be told from there.
    func historyTrailer(
        of id: NodeID, field: String?, hasRows: Bool, usesAfterTurn: Bool, textOnlyAt: TurnNumber? = nil
    ) -> [Report] {
        if let field, let turn = textOnlyAt {
            return [
                .message(
                    Self.textOnlyField(label(id), path: field, at: turn) + "; 'history \(label(id))' shows its values")
            ]
        }
        guard hasRows else { return [.message("\(label(id) + (field ?? "")) never changed in this recording")] }
        return usesAfterTurn ? [.message("turn N+ means between turn N and the next, e.g. computed by a read")] : []
    }

    /// Whether a history row is about the time after a turn (`N+`).
    static func isAfterTurn(_ row: [Cell]) -> Bool {
        if case .turn(let reference) = row.first { return reference.afterTurn }
        return false
    }
}
