package import CogTraceFormat
package import CogTraceStore

extension CommandContext {
    /// One event as a line a person reads, with labels instead of ids.
    package func describe(_ event: TraceEvent) -> String {
        Self.describe(event, in: trace) { label($0) }
    }

    /// One event of `trace` as a line, naming ids with `name`: `describe` for a caller that
    /// names them without a command's context (the SQL tables, which outlive one command).
    package static func describe(_ event: TraceEvent, in trace: TraceFile, name: (NodeID) -> String) -> String {
        func text(_ value: TraceValue?) -> String { value.map(\.text) ?? "nil" }
        switch event {
        case .stateCreated(let state, let value):
            return "created \(name(state))" + (value.map { " = \($0.text)" } ?? "")
        case .seeded(let state, let value): return "seeded \(name(state)) = \(value.text)"
        case .write(let state, let old, let new):
            // An async state's write is the result of its work: said as `why` and `history` say it.
            guard trace.states[state]?.shape == .async else { return "write \(name(state)): \(old.text) → \(new.text)" }
            return "published \(name(state)): \(old.text) → \(new.text), a result of its async work"
        case .writeDiscarded(let state, let value): return "equal write discarded: \(name(state)) = \(value.text)"
        case .recompute(let state, let old, let new, let changed, let trigger):
            return "recompute \(name(state)): \(text(old)) → \(text(new))" + (changed ? "" : " (gated: equal)")
                + (trigger.map { " because \(name($0)) changed" } ?? (old == nil ? " (first run)" : " (run again)"))
        case .edgeAdded(let consumer, let producer): return "edge added: \(name(consumer)) reads \(name(producer))"
        case .edgeRemoved(let consumer, let producer):
            return "edge removed: \(name(consumer)) no longer reads \(name(producer))"
        case .dependencies(let consumer, let producers):
            return "dependencies of \(name(consumer)): [\(producers.map(name).joined(separator: ", "))]"
        case .unregistered(let registration): return "unregistered \(name(registration))"
        case .boundaryAttached(let state): return "pinned by a UI read: \(name(state))"
        case .notice(let state): return "observers notified: \(name(state))"
        case .offer(let state, _, let value): return "export offered \(name(state)) = \(value.text)"
        case .reactionRun(let registration): return "reaction ran: \(name(registration))"
        case .watchRun(let registration, let old, let new):
            return "watch ran: \(name(registration)) \(text(old)) → \(new.text)"
        case .leaseAcquired(let state, let holder): return "lease on \(name(state)) taken by \(holder)"
        case .leaseReleased(let state, let holder): return "lease on \(name(state)) given up by \(holder)"
        case .leaseRenewed(let state, let holder): return "grace of \(name(state)) renewed by \(holder)"
        case .graceScheduled(let state, let milliseconds):
            return "grace scheduled: \(name(state)) released in \(formatMilliseconds(Double(milliseconds))) unless used"
        case .graceExpired(let state): return "grace expired: \(name(state))"
        case .stateReleased(let state, let reason): return "released \(name(state)) (\(reason))"
        case .generationStarted(let state, let generation, let policy):
            return "generation \(generation) of \(name(state)) started (\(policy))"
        case .generationCancelled(let state, let generation):
            return "generation \(generation) of \(name(state)) cancelled"
        case .generationAccepted(let state, let generation, let outcome):
            return "generation \(generation) of \(name(state)) published \(outcome)"
        case .generationRejected(let state, let generation):
            return "late result of generation \(generation) of \(name(state)) rejected"
        case .asyncStatus(let state, let kind, let isLoading, _, let error):
            return "status of \(name(state)): \(kind)" + (isLoading ? ", loading" : "")
                + (error.map { ", error: \($0)" } ?? "")
        case .refreshResolved(let state, let generation, let outcome):
            return "refresh of \(name(state)) (generation \(generation.map(String.init) ?? "-")) resolved \(outcome)"
        case .registered(_, let name, let kind): return "registered \(kind) \(name)"
        case .scopeOpened(_, let name, _): return "scope opened: \(name)"
        case .scopeRetired(let registration): return "scope retired: \(name(registration))"
        case .taskStarted(_, let name): return "task started: \(name)"
        case .taskCancelled(let registration): return "task cancelled: \(name(registration))"
        case .taskFinished(let registration): return "task finished: \(name(registration))"
        case .turnDropped(let name, let reason): return "queued turn '\(name)' dropped: \(reason)"
        case .diagnostic(let kind, let message, _): return "diagnostic (\(kind)): \(message)"
        }
    }

    /// Turn `sequence` as sections of related events.
    func describeTurn(_ sequence: TurnNumber) throws(InspectorError) -> [Report] {
        let turn = try turn(sequence)
        var header = [
            Field("turn", .turn(TurnReference(sequence))), Field("name", .text(turn.name)),
            Field("origin", .text(turn.origin.rawValue)),
        ]
        if let cause = turn.cause { header.append(Field("caused by", .turn(TurnReference(cause)))) }
        header.append(Field("events", .integer(turn.events.count)))
        var reports: [Report] = [.fields(header)]
        for group in Self.eventGroups(of: turn) {
            reports.append(
                .section(
                    group.title,
                    [.events(group.events.map { described($0, in: sequence, afterTurn: group.isAfterTurn) })]))
        }
        let failures = trace.failures.filter { $0.after == sequence }
        if !failures.isEmpty {
            reports.append(.section("failures after this turn", [CommandCatalog.failureTable(failures)]))
        }
        return reports
    }

    /// A turn's events in the groups `turn N` prints them in: writes, recomputes, edges, notices
    /// and reactions, async work, the rest as lifecycle, then the work after the turn; dependency
    /// lists, which repeat the edge events, are left out. The viewer's change list uses the same.
    package static func eventGroups(of turn: TraceTurn) -> [(title: String, events: [TraceEvent], isAfterTurn: Bool)] {
        let groups: [(String, (TraceEvent) -> Bool)] = [
            ("writes", { if case .write = $0 { true } else if case .writeDiscarded = $0 { true } else { false } }),
            ("recomputes", { if case .recompute = $0 { true } else { false } }),
            ("edges", { if case .edgeAdded = $0 { true } else if case .edgeRemoved = $0 { true } else { false } }),
            (
                "notices and reactions",
                { event in
                    switch event {
                    case .notice, .reactionRun, .watchRun, .offer: true
                    default: false
                    }
                }
            ),
            (
                "async",
                { event in
                    switch event {
                    case .generationStarted, .generationCancelled, .generationAccepted, .generationRejected,
                        .asyncStatus, .refreshResolved:
                        true
                    default: false
                    }
                }
            ),
        ]
        var found: [(title: String, events: [TraceEvent], isAfterTurn: Bool)] = []
        var shown = Set<Int>()
        for (title, belongs) in groups {
            let indices = turn.events.indices.filter { !shown.contains($0) && belongs(turn.events[$0]) }
            guard !indices.isEmpty else { continue }
            shown.formUnion(indices)
            found.append((title, indices.map { turn.events[$0] }, false))
        }
        let rest = turn.events.indices.filter { !shown.contains($0) && !isBookkeeping(turn.events[$0]) }
        if !rest.isEmpty { found.append(("lifecycle", rest.map { turn.events[$0] }, false)) }
        let after = turn.after.filter { !isBookkeeping($0) }
        if !after.isEmpty { found.append(("after the turn", after, true)) }
        return found
    }

    private func described(_ event: TraceEvent, in turn: TurnNumber, afterTurn: Bool = false) -> DescribedEvent {
        DescribedEvent(turn: TurnReference(turn, afterTurn: afterTurn), event: event, description: describe(event))
    }

    /// Dependency lists repeat what the edge events say; listings leave them out.
    private static func isBookkeeping(_ event: TraceEvent) -> Bool {
        if case .dependencies = event { return true }
        return false
    }
}
