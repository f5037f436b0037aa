import CogTraceFormat

extension CommandCatalog {
    static let explain: [CommandSpec] = [
        CommandSpec(
            name: "why", aliases: ["y"], group: "explain", synopsis: "why STATE",
            summary: "the causal chain from the value at the cursor back through each recompute and the dependency "
                + "that changed, to the source write and the turn and op that made it",
            example: "why weather.isNiceHere", valueFlags: []
        ) { session, arguments throws(InspectorError) in
            let id = try session.resolveState(try arguments.single("state"))
            return [.lines(session.causalChain(of: id).map(\.line))]
        },
        CommandSpec(
            name: "history", aliases: ["hist"], group: "explain", synopsis: "history STATE",
            summary: "every value a state held, the turn that changed it, and why in one line",
            example: "history weather.isNiceHere", valueFlags: []
        ) { session, arguments throws(InspectorError) in
            let id = try session.resolveState(try arguments.single("state"))
            let rows = (session.timeline.byState[id] ?? []).compactMap { entry -> [String]? in
                guard entry.event.setsValue(of: id) else {
                    if case .stateReleased(_, let reason) = entry.event { return ["\(entry.turn)", "—", "released (\(reason))"] }
                    return nil
                }
                return ["\(entry.turn)" + (entry.isIdle ? "+" : ""), entry.event.newValue?.text ?? "nil",
                        session.reason(for: entry, of: id)]
            }
            guard !rows.isEmpty else { return [.message("\(session.label(id)) never changed in this recording")] }
            return [.table(columns: ["turn", "value", "why"], rows: rows),
                    .message("turn N+ means between turn N and the next, e.g. computed by a read")]
        },
    ]
}

/// One link of a `why` chain.
public struct CausalLink: Equatable {
    /// The state whose value this link explains.
    public let state: Int
    /// The turn whose event set it.
    public let turn: Int
    /// The event that set it.
    public let event: TraceEvent
    /// The link as a sentence.
    public let line: String
}

extension InspectorSession {
    /// Why `state` holds its value at the cursor: the event that set it, then (for a recompute)
    /// the same question for the dependency whose change triggered it, until a source write, a
    /// seed, a creation, or the start of the recording.
    public func causalChain(of state: Int) -> [CausalLink] {
        var links: [CausalLink] = []
        var current = state
        var limit = cursor
        var visited = Set<Int>()
        while visited.insert(current).inserted {
            guard let entry = timeline.lastDecision(of: current, through: limit) else {
                let evicted = trace.trailer?.evicted ?? 0
                let note = evicted > 0
                    ? "\(label(current)) has held its value since before turn \(turns.first ?? 0); the \(evicted) turns before were evicted"
                    : "\(label(current)) has held its value since the recording began"
                links.append(CausalLink(state: current, turn: turns.first ?? 0, event: .graceExpired(state: current), line: note))
                break
            }
            let value = entry.event.newValue?.text ?? "nil"
            let line = "\(label(current)) = \(value): \(reason(for: entry, of: current))"
            links.append(CausalLink(state: current, turn: entry.turn, event: entry.event, line: line))
            guard case .recompute(_, _, _, _, let trigger) = entry.event, let trigger else { break }
            current = trigger
            limit = entry.turn
        }
        return links
    }

    /// One line saying why `entry` set the state's value.
    func reason(for entry: StateTimeline.Entry, of state: Int) -> String {
        let turn = timeline.turnNames[entry.turn]
        let place = entry.isIdle ? "after turn \(entry.turn)" : "in turn \(entry.turn) (\(turn?.name ?? "?"))"
        switch entry.event {
        case .write:
            if trace.states[state]?.shape == "async" { return "published \(place), a result of its async work" }
            let cause = turn?.cause.map { ", requested during turn \($0)" } ?? ""
            return "written \(place), origin \(turn?.origin ?? "?")\(cause)"
        case .seeded: return "seeded by a test before the recording's first turn"
        case .stateCreated: return "its initial value when it was created \(place)"
        case .recompute(_, _, _, let changed, let trigger):
            guard let trigger else { return "computed for the first time \(place)" }
            return "recomputed\(changed ? "" : " to the same value") \(place) because \(label(trigger)) changed"
        default: return "changed \(place)"
        }
    }
}
