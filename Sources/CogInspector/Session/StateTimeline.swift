import CogTraceFormat

/// Every event of the trace indexed by the state or registration it touches (they share one id
/// space), built once on first use: what `history`, `why`, `async` and `leases` walk.
final class StateTimeline {
    /// One event in its turn.
    struct Entry {
        let turn: TurnNumber
        let event: TraceEvent
        /// True for an event between turns (after `turn`).
        let isIdle: Bool
        /// Where in its turn's events (or its idle events) it is.
        let position: Int

        /// Whether it happened before `other` in the recording.
        func precedes(_ other: Entry) -> Bool {
            (turn, isIdle ? 1 : 0, position) < (other.turn, other.isIdle ? 1 : 0, other.position)
        }
    }

    private(set) var byState: [NodeID: [Entry]] = [:]
    private(set) var registrationNames: [NodeID: String] = [:]
    /// Registration kinds by id, as first registered.
    private(set) var registrationKinds: [NodeID: RegistrationKind] = [:]
    /// Turn names by sequence.
    private(set) var turnNames: [TurnNumber: (name: String, origin: TurnOrigin, cause: TurnNumber?)] = [:]
    /// The turns whose records could not be decoded, in order, with why: answers that walk the
    /// timeline leave them out and must say so.
    private(set) var undecodable: [(turn: TurnNumber, error: TraceReadError)] = []
    /// False when an interrupt stopped the build: the session then does not keep it.
    private(set) var isComplete = false

    init(trace: TraceFile) {
        isComplete = trace.forEachTurn { sequence, result in
            let turn: TraceTurn
            switch result {
            case .success(let decoded): turn = decoded
            case .failure(let error):
                undecodable.append((sequence, error))
                return
            }
            turnNames[turn.sequence] = (turn.name, turn.origin, turn.cause)
            for (position, event) in turn.events.enumerated() {
                note(event, turn: turn.sequence, isIdle: false, position: position)
            }
            for (position, event) in turn.after.enumerated() {
                note(event, turn: turn.sequence, isIdle: true, position: position)
            }
        }
    }

    private func note(_ event: TraceEvent, turn: TurnNumber, isIdle: Bool, position: Int) {
        switch event {
        case .registered(let id, let name, let kind):
            registrationNames[id] = name
            if registrationKinds[id] == nil { registrationKinds[id] = kind }
        case .scopeOpened(let id, let name, _):
            registrationNames[id] = name
            if registrationKinds[id] == nil { registrationKinds[id] = .scopeOpening }
        case .taskStarted(let id, let name):
            registrationNames[id] = name
            if registrationKinds[id] == nil { registrationKinds[id] = .task }
        default:
            break
        }
        let entry = Entry(turn: turn, event: event, isIdle: isIdle, position: position)
        if let subject = event.state ?? event.registration { byState[subject, default: []].append(entry) }
        if case .edgeAdded(_, let producer) = event { byState[producer, default: []].append(entry) }
        if case .edgeRemoved(_, let producer) = event { byState[producer, default: []].append(entry) }
    }

    /// The ids of every registration named `name`, in the order they were made: a reaction made
    /// again (a scope reopened, a watch re-registered) gets a new id under the same name.
    func registrations(named name: String) -> [NodeID] {
        registrationNames.filter { $0.value == name }.keys.sorted()
    }

    /// The events touching `state` up to and including turn `limit` (and its idle events).
    func entries(of state: NodeID, through limit: TurnNumber) -> ArraySlice<Entry> {
        guard let all = byState[state] else { return [] }
        return all[..<end(of: all, through: limit)]
    }

    /// The position after the last entry at or before turn `limit`: entries are in turn order,
    /// so a binary search finds it.
    private func end(of entries: [Entry], through limit: TurnNumber) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].turn <= limit { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The last event at or before `limit` that decided the state's value: a write, or its latest
    /// run (even one whose equal result was gated, since that run is why the value still holds).
    /// Walks back from `limit`, so it costs the distance to that event, not the state's history.
    func lastDecision(of state: NodeID, through limit: TurnNumber) -> Entry? {
        guard let all = byState[state] else { return nil }
        var index = end(of: all, through: limit)
        while index > 0 {
            index -= 1
            let entry = all[index]
            if case .recompute(state, _, let new, _, _) = entry.event {
                if new != nil { return entry }
            } else if entry.event.setsValue(of: state) {
                return entry
            }
        }
        return nil
    }
}

extension TraceEvent {
    /// Whether this event gave `state` a new value.
    func setsValue(of state: NodeID) -> Bool {
        switch self {
        case .write(state, _, _), .seeded(state, _): true
        case .stateCreated(state, let value): value != nil
        case .recompute(state, _, let new, let changed, _): changed && new != nil
        default: false
        }
    }

    /// The value this event gave its state, if any.
    var newValue: TraceValue? {
        switch self {
        case .write(_, _, let new), .seeded(_, let new): new
        case .stateCreated(_, let value): value
        case .recompute(_, _, let new, _, _): new
        default: nil
        }
    }
}
