extension TraceValue {
    /// This value rendered now: its text and JSON, with nothing of the app's value kept. What a
    /// record must hold before another thread may encode it, since only the app's thread may
    /// look at the app's value.
    package var settled: TraceValue {
        switch storage {
        case .pending(let box): return TraceValue(settling: box.value)
        case .rendered, .integer, .redacted: return self
        }
    }
}

extension TraceValue {
    /// Whether this value holds nothing of the app's: it was rendered, or redacted.
    package var isSettled: Bool {
        if case .pending = storage { false } else { true }
    }
}

extension GraphSnapshot {
    /// The graph with every state's value settled, so it may be handed to another thread.
    package var settlingValues: GraphSnapshot {
        var settled = self
        for position in 0..<settled.states.count {
            settled.states.update(at: position) { $0.value = $0.value?.settled }
        }
        return settled
    }
}

extension TraceEvent {
    /// The event with each of its values settled.
    package var settlingValues: TraceEvent {
        switch self {
        case .stateCreated(let state, let value): .stateCreated(state: state, value: value?.settled)
        case .seeded(let state, let value): .seeded(state: state, value: value.settled)
        case .write(let state, let old, let new): .write(state: state, old: old.settled, new: new.settled)
        case .writeDiscarded(let state, let value): .writeDiscarded(state: state, value: value.settled)
        case .recompute(let state, let old, let new, let changed, let trigger):
            .recompute(state: state, old: old?.settled, new: new?.settled, changed: changed, trigger: trigger)
        case .offer(let state, let subscriber, let value):
            .offer(state: state, subscriber: subscriber, value: value.settled)
        case .watchRun(let registration, let old, let new):
            .watchRun(registration: registration, old: old?.settled, new: new.settled)
        default: self
        }
    }
}

extension TraceTurn {
    /// The turn with every value of its events settled.
    package var settlingValues: TraceTurn {
        var settled = self
        settled.events = events.map(\.settlingValues)
        settled.after = after.map(\.settlingValues)
        return settled
    }
}
