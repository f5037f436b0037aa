import CogTraceFormat

extension CommandCatalog {
    static let explain: [CommandSpec] = [
        CommandSpec(
            name: "why", aliases: ["y"], group: "explain", synopsis: "why STATE|REACTION",
            summary: "the causal chain from the value at the cursor back through each recompute and the dependency "
                + "that changed, to the source write and the turn and op that made it; for a reaction or watch, "
                + "its last run and the change that made it run",
            example: "why weather.isNiceHere", valueFlags: []
        ) { session, arguments throws(InspectorError) in
            switch try session.resolveSubject(try arguments.single("state")) {
            case .state(let id):
                return [.causalChain(session.causalChain(of: id))]
            case .registration(let name, let ids, _):
                let chain = session.registrationChain(name: name, ids: ids)
                return chain.isEmpty
                    ? [.message("\(name) has not run by turn \(session.cursor)")] : [.causalChain(chain)]
            }
        },
        CommandSpec(
            name: "history", aliases: ["hist"], group: "explain", synopsis: "history STATE|REACTION",
            summary: "every value a state held, the turn that changed it, and why in one line; for a reaction, "
                + "watch, scope or task, every run (and each time a watch fired) with what it read and what changed",
            example: "history Weather.niceAlert", valueFlags: []
        ) { session, arguments throws(InspectorError) in
            let subject = try session.resolveSubject(try arguments.single("state"))
            guard case .state(let id) = subject else {
                guard case .registration(let name, let ids, let kind) = subject else { return [] }
                return session.registrationHistory(name: name, ids: ids, kind: kind)
            }
            // Only these kinds give a state a value or take it away; the rest are not decoded.
            let timeline = session.timeline(covering: [id])
            let entries = timeline.entries(of: id).decoded(
                kinds: ["write", "seeded", "created", "recompute", "released"])
            timeline.readHeadings(of: entries.filter { $0.event?.setsValue(of: id) == true }.map(\.turn))
            let rows = entries.compactMap { entry -> [Cell]? in
                let turn = Cell.turn(TurnReference(entry.turn, afterTurn: entry.isIdle))
                guard let event = entry.event, event.setsValue(of: id) else {
                    if case .stateReleased(_, let reason) = entry.event {
                        return [turn, .absent, .text("released (\(reason))")]
                    }
                    return nil
                }
                return [turn, .value(event.newValue), .text(session.reason(for: entry, of: id))]
            }
            guard !rows.isEmpty else { return [.message("\(session.label(id)) never changed in this recording")] }
            return [
                .table(columns: ["turn", "value", "why"], rows: rows),
                .message("turn N+ means between turn N and the next, e.g. computed by a read"),
            ]
        },
    ]
}

/// One link of a `why` chain: which state, what value, which turn set it, how, and the
/// dependency whose change made it run.
public struct CausalLink: Equatable {
    /// How the link's value came to be.
    public enum Cause: String, Sendable {
        /// An op or mechanism wrote the source.
        case written
        /// An async state published the result of its work.
        case published
        /// A test seeded it before the first turn.
        case seeded
        /// Its initial value when it was created.
        case created
        /// Its selector ran for the first time.
        case firstRun = "first run"
        /// Its selector ran again because `trigger` changed.
        case recomputed
        /// A reaction or watch ran because `trigger` changed (or for the first time).
        case reacted = "ran"
        /// It has held its value since before the recording's first turn.
        case heldSinceStart = "held since start"
        /// Any other event that set it.
        case other
    }

    /// The state whose value this link explains.
    public let state: StateReference
    /// Its value (nil when never computed).
    public let value: TraceValue?
    /// The turn whose event set it; nil when it has held its value since the recording began.
    public let turn: TurnReference?
    /// How the value came to be.
    public let cause: Cause
    /// For a recompute, whether the value changed (false: gated as equal).
    public let changed: Bool
    /// The dependency whose change made it recompute; the next link explains that one.
    public let trigger: StateReference?
    /// The event that set it.
    public let event: TraceEvent?
    /// The explanation as a sentence.
    public let explanation: String

    /// The link as one line: `label = value: explanation`.
    public var line: String {
        cause == .heldSinceStart ? explanation : "\(state.label) = \(value?.text ?? "nil"): \(explanation)"
    }
}

extension InspectorSession {
    /// Why `state` holds its value at the cursor: the event that set it, then (for a recompute)
    /// the same question for the dependency whose change triggered it, until a source write, a
    /// seed, a creation, or the start of the recording.
    public func causalChain(of state: NodeID) -> [CausalLink] {
        causalChain(of: state, through: cursor)
    }

    /// The causal chain of `state`'s value after turn `limit`.
    func causalChain(of state: NodeID, through limit: TurnNumber) -> [CausalLink] {
        var links: [CausalLink] = []
        var current = state
        var limit = limit
        var visited = Set<NodeID>()
        while visited.insert(current).inserted {
            guard let entry = lastDecision(of: current, through: limit) else {
                let evicted = trace.trailer?.evicted ?? 0
                let note =
                    evicted > 0
                    ? "\(label(current)) has held its value since before turn \(turns.first ?? 0); the \(evicted) turns before were evicted"
                    : "\(label(current)) has held its value since the recording began"
                let value = (try? graph(after: limit))?.states[current]?.value
                links.append(
                    CausalLink(
                        state: reference(current), value: value, turn: nil, cause: .heldSinceStart,
                        changed: false, trigger: nil, event: nil, explanation: note))
                break
            }
            var trigger: NodeID?
            var changed = true
            if case .recompute(_, _, _, let didChange, let cause) = entry.event {
                trigger = cause
                changed = didChange
            }
            links.append(
                CausalLink(
                    state: reference(current), value: entry.event?.newValue,
                    turn: TurnReference(entry.turn, afterTurn: entry.isIdle), cause: cause(of: entry, for: current),
                    changed: changed, trigger: trigger.map { reference($0) }, event: entry.event,
                    explanation: reason(for: entry, of: current)))
            guard let trigger else { break }
            current = trigger
            limit = entry.turn
        }
        return links
    }

    private func cause(of entry: StateTimeline.Entry, for state: NodeID) -> CausalLink.Cause {
        switch entry.event {
        case .write: trace.states[state]?.shape == .async ? .published : .written
        case .seeded: .seeded
        case .stateCreated: .created
        case .recompute(_, _, _, _, let trigger): trigger == nil ? .firstRun : .recomputed
        default: .other
        }
    }

    /// One line saying why `entry` set the state's value.
    func reason(for entry: StateTimeline.Entry, of state: NodeID) -> String {
        let turn = heading(of: entry.turn)
        let place = entry.isIdle ? "after turn \(entry.turn)" : "in turn \(entry.turn) (\(turn?.name ?? "?"))"
        switch entry.event {
        case .write:
            if trace.states[state]?.shape == .async { return "published \(place), a result of its async work" }
            let cause = turn?.cause.map { ", requested during turn \($0)" } ?? ""
            return "written \(place), origin \(turn?.origin.rawValue ?? "?")\(cause)"
        case .seeded: return "seeded by a test before the recording's first turn"
        case .stateCreated: return "its initial value when it was created \(place)"
        case .recompute(_, _, _, let changed, let trigger):
            guard let trigger else { return "computed for the first time \(place)" }
            return "recomputed\(changed ? "" : " to the same value") \(place) because \(label(trigger)) changed"
        default: return "changed \(place)"
        }
    }
}
