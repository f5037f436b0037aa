import CogInspector
import CogTraceFormat
import CogTraceStore

/// What the viewer's change list shows for one turn: its events in the groups `turn N` prints
/// (the same lines, from the same engine), each naming the node it selects, with structured
/// values diffed field by field; the work after the turn as its own group; and the failures
/// the test reported after it.
enum ViewerChanges {
    /// One line of the change list: the engine's line for an event, the node it selects (nil
    /// when the event's subject is not drawn) and, for a structured value, each changed field.
    struct Entry {
        let line: String
        let slot: Int?
        let fields: [String]
    }

    /// The change list of `turn`: its groups in order, each with its title, whether it is the
    /// work after the turn, and its entries.
    static func groups(
        of turn: TraceTurn, in session: CommandContext, slot: (NodeID) -> Int?
    ) -> [(title: String, isAfterTurn: Bool, entries: [Entry])] {
        CommandContext.eventGroups(of: turn).map { group in
            (
                group.title, group.isAfterTurn,
                group.events.map { event in
                    Entry(
                        line: session.describe(event), slot: (event.state ?? event.registration).flatMap(slot),
                        fields: fieldLines(of: event))
                }
            )
        }
    }

    /// The slots of the nodes the work after `turn` touched: marked on the graph as `N+` work.
    static func touchedAfter(_ turn: TraceTurn, slot: (NodeID) -> Int?) -> [Int] {
        var found = Set<Int>()
        for event in turn.after {
            if let subject = event.state ?? event.registration, let node = slot(subject) { found.insert(node) }
        }
        return found.sorted()
    }

    /// `[[test, kind, message, file:line or null], …]`: the failures reported after `turn`.
    static func failures(after turn: TurnNumber, in trace: TraceFile) -> [JSONValue] {
        trace.failures.filter { $0.after == turn }.map { failure in
            .array([
                .string(failure.test), .string(failure.kind.rawValue), .string(failure.message),
                failure.location.map(JSONValue.string) ?? .null,
            ])
        }
    }

    /// For a value that changed between two structured values, one line per leaf field that
    /// differs (`.temperatureF: 72 → 95`); nothing for plain values, whose line says it all.
    static func fieldLines(of event: TraceEvent) -> [String] {
        let values: (TraceValue?, TraceValue?)
        switch event {
        case .write(_, let old, let new): values = (old, new)
        case .recompute(_, let old, let new, _, _): values = (old, new)
        case .watchRun(_, let old, let new): values = (old, new)
        default: return []
        }
        guard let old = values.0?.json, let new = values.1?.json, old.isStructured, new.isStructured else {
            return []
        }
        return old.fieldChanges(to: new).filter { !$0.path.isEmpty }.map(\.line)
    }
}

extension JSONValue {
    /// Whether the value has fields to compare one by one: an object or an array.
    fileprivate var isStructured: Bool {
        switch self {
        case .object, .array: true
        default: false
        }
    }
}
