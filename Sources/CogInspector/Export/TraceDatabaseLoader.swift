import CogTraceFormat

/// Fills a `TraceDatabase`'s tables from a trace, one row per state, turn and event.
struct TraceDatabaseLoader {
    let database: TraceDatabase
    /// The recording, its name (every row's `trace` column) and how to name its ids and events.
    let source: TraceDatabase.Source

    private var label: (NodeID) -> String { source.label }
    private var describe: (TraceEvent) -> String { source.describe }

    /// One row of `table`, its `trace` column last.
    private func insert(_ table: String, _ values: [SQLValue]) throws(InspectorError) {
        try database.insert(table, values + [.text(source.name)])
    }

    func load() throws(InspectorError) {
        let trace = source.trace
        for failure in trace.failures {
            try insert(
                "failures",
                [
                    .integer(failure.after), .text(failure.test), .text(failure.kind.rawValue),
                    .text(failure.message), SQLValue(failure.file), SQLValue(failure.line),
                ])
        }
        for info in trace.states.values.sorted(by: { $0.id < $1.id }) {
            try insert(
                "states",
                [
                    .integer(info.id), .text(info.label), .text(info.declaration), SQLValue(info.key),
                    .text(info.shape.rawValue),
                    .text(info.valueType), .text(info.lifetime.rawValue), SQLValue(info.policy?.rawValue),
                ])
        }
        for (position, sequence) in trace.turnSequences.enumerated() {
            if position % 1_024 == 0, trace.cancellation?() == true { throw .interrupted }
            let turn: TraceTurn
            do {
                turn = try trace.turn(sequence)
            } catch {
                throw InspectorError("the trace is malformed: \(error)")
            }
            try insert(
                "turns",
                [
                    .integer(turn.sequence), .text(turn.name), .text(turn.origin.rawValue), SQLValue(turn.cause),
                    .integer(turn.start),
                    .integer(turn.duration), .integer(turn.events.count),
                ])
            for (position, event) in turn.events.enumerated() {
                try add(event, turn: sequence, position: position, isAfter: false)
            }
            for (position, event) in turn.after.enumerated() {
                try add(event, turn: sequence, position: turn.events.count + position, isAfter: true)
            }
        }
    }

    private func add(_ event: TraceEvent, turn: TurnNumber, position: Int, isAfter: Bool) throws(InspectorError) {
        let after = SQLValue(isAfter)
        try insert(
            "events",
            [
                .integer(turn), .integer(position), after, .text(event.kind), SQLValue(event.state),
                SQLValue(event.state.map(label)), .text(describe(event)),
            ])
        switch event {
        case .write(let state, let old, let new):
            try insert(
                "writes",
                [
                    .integer(turn), .integer(state), .text(label(state)), .text(old.text), .text(new.text),
                    SQLValue(new.json?.jsonText), SQLValue(false),
                ])
        case .writeDiscarded(let state, let value):
            try insert(
                "writes",
                [
                    .integer(turn), .integer(state), .text(label(state)), .text(value.text),
                    .text(value.text), SQLValue(value.json?.jsonText), SQLValue(true),
                ])
        case .recompute(let state, let old, let new, let changed, let trigger):
            try insert(
                "recomputes",
                [
                    .integer(turn), after, .integer(state), .text(label(state)), SQLValue(old?.text),
                    SQLValue(new?.text),
                    SQLValue(new?.json?.jsonText), SQLValue(changed), SQLValue(trigger), SQLValue(trigger.map(label)),
                ])
        case .edgeAdded(let consumer, let producer), .edgeRemoved(let consumer, let producer):
            let change = if case .edgeAdded = event { "added" } else { "removed" }
            try insert(
                "edges",
                [
                    .integer(turn), after, .integer(consumer), .text(label(consumer)), .integer(producer),
                    .text(label(producer)), .text(change),
                ])
        case .leaseAcquired(let state, let holder): try lease(turn, after, state, holder, "acquired")
        case .leaseReleased(let state, let holder): try lease(turn, after, state, holder, "released")
        case .leaseRenewed(let state, let holder): try lease(turn, after, state, holder, "renewed")
        case .generationStarted(let state, let generation, let policy):
            try step(turn, after, state, generation, "started", policy.rawValue)
        case .generationCancelled(let state, let generation): try step(turn, after, state, generation, "cancelled", nil)
        case .generationAccepted(let state, let generation, let outcome):
            try step(turn, after, state, generation, "accepted", outcome)
        case .generationRejected(let state, let generation): try step(turn, after, state, generation, "rejected", nil)
        case .asyncStatus(let state, let kind, _, _, let error):
            try step(turn, after, state, nil, "status", kind.rawValue + (error.map { ": \($0)" } ?? ""))
        case .refreshResolved(let state, let generation, let outcome):
            try step(turn, after, state, generation, "refresh", outcome)
        default:
            break
        }
    }

    private func lease(
        _ turn: TurnNumber, _ after: SQLValue, _ state: NodeID, _ holder: String, _ change: String
    ) throws(InspectorError) {
        try insert(
            "leases", [.integer(turn), after, .integer(state), .text(label(state)), .text(holder), .text(change)])
    }

    private func step(
        _ turn: TurnNumber, _ after: SQLValue, _ state: NodeID, _ generation: Int?, _ step: String,
        _ detail: String?
    ) throws(InspectorError) {
        try insert(
            "async",
            [
                .integer(turn), after, .integer(state), .text(label(state)), SQLValue(generation),
                .text(step), SQLValue(detail),
            ])
    }
}
