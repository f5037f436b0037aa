import CogTraceFormat
import CogTraceStore

extension CommandCatalog {
    static let look: [CommandSpec] = [
        CommandSpec(
            name: "get", aliases: ["v"], group: "look", synopsis: "get STATE[.FIELD]|REACTION [@TURN]",
            summary: "a state's value at the cursor (and its status, for an async state), or one field of it "
                + "(get weather.forecast[10001].temperatureF); an Encodable value shows as a tree of its "
                + "fields, one per line (--description: its Swift description); for a reaction or watch, how "
                + "often it ran and fired; @TURN asks about another turn without moving",
            example: "get weather.isNice[10001]", valueFlags: [], switches: ["--description"]
        ) { session, arguments throws(InspectorError) in
            let question = try arguments.subjectQuestion(in: session)
            let reports = try session.answering(at: question.turn) { () throws(InspectorError) -> [Report] in
                switch question.subject {
                case .registration(let name, let ids, let kind):
                    return [.fields(try session.registrationFields(name: name, ids: ids, kind: kind))]
                case .state(let id):
                    if let field = question.field { return try session.field(field, of: id) }
                    return try session.stateFields(of: id)
                }
            }
            return arguments.switches.contains("--description") ? reports.map(\.describingValues) : reports
        },
        CommandSpec(
            name: "state", aliases: ["states"], group: "look", synopsis: "state [PATTERN]",
            summary:
                "the live states at the cursor whose labels match PATTERN (* wildcards; plain text matches anywhere)",
            example: "state weather.is*", valueFlags: []
        ) { session, arguments throws(InspectorError) in
            let pattern = try arguments.optional("pattern")
            let graph = try session.graph()
            let matcher = pattern.map(TextMatcher.init)
            let matching = graph.states.keys.sorted().map { session.reference($0) }.filter { reference in
                matcher?.matches(reference.label) ?? true
            }
            // Settle marks walk upstream of what is listed only: one state of a wide graph
            // costs its ancestry, not the graph.
            let marks = graph.settleMarks(of: matching.map(\.id))
            let rows = matching.map { reference -> [Cell] in
                [
                    .state(reference), .value(graph.states[reference.id]?.value),
                    .optionalText(session.trace.states[reference.id]?.shape.rawValue),
                    .text(marks[reference.id] ?? "clean"),
                ]
            }
            guard !rows.isEmpty else { return [.message("no live state matches '\(pattern ?? "")'")] }
            return [.table(columns: ["state", "value", "shape", "settle"], rows: rows)]
        },
        CommandSpec(
            name: "deps", aliases: ["d"], group: "look", synopsis: "deps STATE|REACTION",
            summary: "what a state or reaction read in its last run, in read order, with values; for a state, "
                + "which reads changed before that run (what made it run, as `why` names it) and which since",
            example: "deps weather.isNiceHere", valueFlags: []
        ) { session, arguments throws(InspectorError) in
            let subject = try session.resolveSubject(try arguments.single("state"))
            let graph = try session.graph()
            if case .registration(let name, let ids, _) = subject {
                guard let live = ids.last(where: { graph.registrations[$0] != nil }) else {
                    return [.message("\(name) is not registered at turn \(session.cursor)")]
                }
                let reads = graph.registrations[live]?.dependencies ?? []
                guard !reads.isEmpty else { return [.message("\(name) reads nothing")] }
                return [
                    .table(
                        columns: ["dependency", "value"],
                        rows: reads.map { [.state(session.reference($0)), .value(graph.states[$0]?.value)] })
                ]
            }
            guard case .state(let id) = subject, let state = graph.states[id] else {
                return [.message("\(session.label(subject.ids.first ?? 0)) does not exist at turn \(session.cursor)")]
            }
            guard !state.dependencies.isEmpty else { return [.message("\(session.label(id)) reads nothing")] }
            // What made the last run happen, found as `why` finds its trigger.
            let lastRun = session.lastEntry(of: id, before: .through(session.cursor), kinds: ["recompute"]) {
                if case .recompute(id, _, _, _, _) = $0 { true } else { false }
            }
            let before = lastRun.map { session.changedReads(of: id, at: $0, among: state.dependencies) } ?? []
            return [
                .table(
                    columns: ["dependency", "value", "changed before last run", "changed since last run"],
                    rows: state.dependencies.map { producer in
                        let upstream = graph.states[producer]
                        let changed = upstream.map { $0.version != state.observedVersion(of: producer) } ?? false
                        return [
                            .state(session.reference(producer)), .value(upstream?.value),
                            .bool(before.contains(producer)),
                            .bool(changed),
                        ]
                    })
            ]
        },
        CommandSpec(
            name: "users", aliases: ["u"], group: "look", synopsis: "users STATE",
            summary: "the states, reactions, watches and exports that read a state",
            example: "users weather.currentZip", valueFlags: []
        ) { session, arguments throws(InspectorError) in
            let subject = try session.resolveSubject(try arguments.single("state"))
            guard case .state(let id) = subject else {
                guard case .registration(let name, let ids, _) = subject else { return [] }
                return [
                    .message(
                        "nothing reads \(name): a \(session.registrationKind(ids[0]).rawValue) only reads states; "
                            + "'deps \(name)' lists what it reads")
                ]
            }
            let graph = try session.graph()
            var readers = graph.states.values.filter { $0.dependencies.contains(id) }.map {
                (reader: session.reference($0.id), kind: "state")
            }
            readers += graph.registrations.values.filter { $0.dependencies.contains(id) }.map {
                (reader: StateReference(id: $0.id, label: $0.name), kind: $0.kind.rawValue)
            }
            guard !readers.isEmpty else {
                return [.message("nothing reads \(session.label(id)) at turn \(session.cursor)")]
            }
            return [
                .table(
                    columns: ["reader", "kind"],
                    rows: readers.sorted { $0.reader.label < $1.reader.label }.map {
                        [.state($0.reader), .text($0.kind)]
                    })
            ]
        },
        CommandSpec(
            name: "leases", aliases: ["l"], group: "look", synopsis: "leases [STATE]",
            summary: "who holds states: lease holders, UI pins, grace windows, and recent releases",
            example: "leases weather.mapLocation", valueFlags: []
        ) { session, arguments throws(InspectorError) in
            let filter = try arguments.optional("state").map { label throws(InspectorError) in
                try session.resolveState(label)
            }
            let graph = try session.graph()
            let ids = filter.map { [$0] } ?? graph.states.keys.sorted()
            // Read once for the whole table: counting each state's readers on its own is
            // quadratic in a graph of thousands of states.
            let read = Set(graph.states.values.lazy.flatMap(\.dependencies))
            let rows = ids.compactMap { id -> [Cell]? in
                guard let state = graph.states[id] else { return nil }
                let isWaiting = state.isInGrace && !state.isPinned && state.leases.isEmpty && !read.contains(id)
                guard filter != nil || !state.leases.isEmpty || state.isPinned || isWaiting else { return nil }
                return [
                    .state(session.reference(id)), .list(state.leases.map(Cell.text)), .bool(state.isPinned),
                    isWaiting ? .text(session.graceDeadline(of: id)) : .absent,
                ]
            }
            var reports: [Report] = []
            if !rows.isEmpty { reports.append(.table(columns: ["state", "held by", "pinned", "grace"], rows: rows)) }
            let releases = (filter.map { [$0] } ?? session.timeline.subjects).flatMap { id in
                session.timeline.entries(of: id, through: session.cursor).only(kind: "released").compactMap {
                    entry -> DescribedEvent? in
                    guard let event = entry.event, case .stateReleased(_, let reason) = event else { return nil }
                    return DescribedEvent(
                        turn: TurnReference(entry.turn, afterTurn: entry.isIdle), event: event,
                        description: "turn \(entry.turn): \(session.label(id)) released (\(reason))")
                }
            }.sorted { ($0.turn.turn, $0.description) < ($1.turn.turn, $1.description) }
            if !releases.isEmpty { reports.append(.section("released", [.events(Array(releases.suffix(10)))])) }
            return reports.isEmpty ? [.message("no state is held at turn \(session.cursor)")] : reports
        },
        CommandSpec(
            name: "async", aliases: ["a"], group: "look", synopsis: "async STATE",
            summary: "an async state's generations and their outcomes, up to the cursor",
            example: "async weather.forecast[10001]", valueFlags: []
        ) { session, arguments throws(InspectorError) in
            let id = try session.resolveState(try arguments.single("state"))
            guard session.trace.states[id]?.shape == .async else {
                throw InspectorError("'\(session.label(id))' is not an async state")
            }
            var generations: [Int: (started: TurnNumber, policy: AsyncPolicyName, outcome: String)] = [:]
            for entry in session.timeline(covering: [id]).entries(of: id, through: session.cursor) {
                switch entry.event {
                case .generationStarted(_, let generation, let policy):
                    generations[generation] = (entry.turn, policy, "running")
                case .generationCancelled(_, let generation):
                    generations[generation]?.outcome = "cancelled at turn \(entry.turn)"
                case .generationAccepted(_, let generation, let outcome):
                    generations[generation]?.outcome = "\(outcome) at turn \(entry.turn)"
                case .generationRejected(_, let generation):
                    generations[generation]?.outcome += "; late result rejected after turn \(entry.turn)"
                default: break
                }
            }
            let rows = generations.sorted { $0.key < $1.key }.map { generation, info -> [Cell] in
                return [
                    .integer(generation), .turn(TurnReference(info.started)), .text(info.policy.rawValue),
                    .text(info.outcome),
                ]
            }
            let graph = try session.graph()
            let status = graph.states[id]?.async
            let summary =
                status.map {
                    "now: \($0.kind)" + ($0.isLoading ? ", loading" : "") + ", value "
                        + (graph.states[id]?.value?.text ?? "nil")
                } ?? "not live at turn \(session.cursor)"
            return [.message(summary), .table(columns: ["generation", "started", "policy", "outcome"], rows: rows)]
        },
        CommandSpec(
            name: "find", aliases: ["f"], group: "look", synopsis: "find PATTERN",
            summary: "states whose label, turns whose name, and values at the cursor that match PATTERN",
            example: "find heat", valueFlags: [], scope: .wholeRecording
        ) { session, arguments throws(InspectorError) in
            guard !arguments.positional.isEmpty else { throw InspectorError("find needs a pattern, e.g. 'find heat'") }
            return try session.find(arguments.positional.joined(separator: " "))
        },
    ]
}

extension CommandContext {
    /// When an unused state's grace runs out: the grace scheduled last, from the turn that scheduled it.
    func graceDeadline(of state: NodeID) -> String {
        let scheduled = timeline.entries(of: state, through: cursor).last { entry in
            if case .graceScheduled = entry.event { true } else { false }
        }
        guard let scheduled, case .graceScheduled(_, let milliseconds) = scheduled.event else { return "waiting" }
        let start = (try? turn(scheduled.turn).start) ?? 0
        let deadline = Double(start) / 1_000 + Double(milliseconds)
        return
            "released at \(formatMilliseconds(deadline)) unless used (scheduled \(scheduled.isIdle ? "after" : "in") turn \(scheduled.turn))"
    }
}

extension Report {
    /// The report with each recorded value as its description alone, so the renderer prints it
    /// on one line instead of as a tree of its fields (`get --description`).
    fileprivate var describingValues: Report {
        guard case .fields(let fields) = self else { return self }
        return .fields(
            fields.map { field in
                guard case .value(let value?) = field.value, value.json != nil else { return field }
                return Field(field.name, .value(TraceValue(text: value.text)))
            })
    }
}
