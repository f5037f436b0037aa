import CogInspector
import CogTraceFormat
import CogTraceStore

/// The rows of a trace's SQL tables, built from scanned turns: the one place that says what a
/// row of `turns`, `events`, `writes` and the rest holds. `export sqlite` inserts them into real
/// tables; `sql` serves them through virtual tables, a row at a time.
struct TraceTableRows {
    /// The recording, its name (every row's `trace` column) and how to name its ids and events.
    let source: TraceDatabase.Source

    /// One row before its values are built: a turn (of `turns`) or one event of a turn.
    enum Row {
        case turn(ScannedTurn)
        case event(turn: TurnNumber, place: Int, ScannedEvent)
    }

    /// Each table's column names, in order, read from its declaration.
    static let columnNames: [String: [String]] = Dictionary(
        uniqueKeysWithValues: TraceDatabase.tableDeclarations.map { name, declaration in
            let inside = declaration.drop { $0 != "(" }.dropFirst()
            // Column definitions come first; a table constraint (`PRIMARY KEY (id, trace)`) ends them.
            let words = inside.split(separator: ",").map {
                $0.split(whereSeparator: \.isWhitespace).first.map(String.init)
            }
            let columns = words.prefix { $0 != "PRIMARY" }.compactMap { $0 }
            return (name, columns.map { $0.hasSuffix(")") ? String($0.dropLast()) : $0 })
        })

    /// The tables made of scanned turns, and the event kinds each is made of (every kind for
    /// `events`, none for `turns`).
    static let scannedTables: [String: Set<String>?] = [
        "turns": [],
        "events": nil,
        "writes": ["write", "writeDiscarded"],
        "recomputes": ["recompute"],
        "edges": ["edgeAdded", "edgeRemoved"],
        "leases": ["leaseAcquired", "leaseReleased", "leaseRenewed"],
        "async": [
            "generationStarted", "generationCancelled", "generationAccepted", "generationRejected", "asyncStatus",
            "refreshResolved",
        ],
    ]

    /// The rows `turn` gives `table`.
    static func rows(of turn: ScannedTurn, in table: String) -> [Row] {
        if table == "turns" { return [.turn(turn)] }
        return turn.events.map { event in
            .event(turn: turn.sequence, place: event.isIdle ? turn.eventCount + event.position : event.position, event)
        }
    }

    /// The columns `knownValue(of:column:)` answers.
    static let knownColumns: Set<String> = [
        "trace", "seq", "events", "turn", "position", "after_turn", "state", "consumer", "label", "consumer_label",
        "producer", "producer_label",
    ]

    /// The value of a column the scan already knows (a turn, a place, an id and its label, the
    /// trace), without decoding anything; nil for a column that needs the decoded record.
    func knownValue(of row: Row, column: String) -> SQLValue? {
        if column == "trace" { return .text(source.name) }
        switch row {
        case .turn(let turn):
            switch column {
            case "turn", "seq": return .integer(turn.sequence)
            case "events": return .integer(turn.eventCount)
            default: return nil
            }
        case .event(let turn, let place, let event):
            switch column {
            case "turn": return .integer(turn)
            case "position": return .integer(place)
            case "after_turn": return SQLValue(event.isIdle)
            case "state", "consumer": return SQLValue(event.state)
            case "label", "consumer_label": return event.state.map { .text(source.label($0)) } ?? .null
            case "producer": return SQLValue(event.producer)
            case "producer_label": return event.producer.map { .text(source.label($0)) } ?? .null
            default: return nil
            }
        }
    }

    /// A row's values in `table`'s column order, the `trace` column last.
    /// - Throws: `InspectorError` when the turn's record is malformed.
    func values(of row: Row, in table: String) throws(InspectorError) -> [SQLValue] {
        let trace = source.trace
        do throws(TraceReadError) {
            switch row {
            case .turn(let turn):
                let (heading, start, duration) = try trace.heading(of: turn)
                return [
                    .integer(turn.sequence), .integer(turn.sequence), .text(heading.name),
                    .text(heading.origin.rawValue),
                    SQLValue(heading.cause), .integer(start), .integer(duration), .integer(turn.eventCount),
                    .text(source.name),
                ]
            case .event(let turn, let place, let scanned):
                guard let event = try trace.event(scanned) else { return [] }
                if table == "events" {
                    return [
                        .integer(turn), .integer(place), SQLValue(scanned.isIdle), .text(event.kind),
                        SQLValue(event.state), SQLValue(event.state.map(source.label)), .text(source.describe(event)),
                        .text(source.name),
                    ]
                }
                return values(of: event, turn: turn, after: SQLValue(scanned.isIdle)) + [.text(source.name)]
            }
        } catch {
            throw InspectorError.malformed(error)
        }
    }

    /// The rows of the tables read straight from the trace's header records.
    func recordRows(in table: String) -> [[SQLValue]] {
        let trace = source.trace
        switch table {
        case "failures":
            return trace.failures.map { failure in
                [
                    .integer(failure.after), .text(failure.test), .text(failure.kind.rawValue),
                    .text(failure.message), SQLValue(failure.file), SQLValue(failure.line), .text(source.name),
                ]
            }
        case "states":
            return trace.states.values.sorted(by: { $0.id < $1.id }).map { info in
                [
                    .integer(info.id), .text(info.label), .text(info.declaration), SQLValue(info.key),
                    .text(info.shape.rawValue), .text(info.valueType), .text(info.lifetime.rawValue),
                    SQLValue(info.policy?.rawValue), .text(source.name),
                ]
            }
        default:
            return []
        }
    }

    /// The row an event of a typed table holds, without the `trace` column.
    private func values(of event: TraceEvent, turn: TurnNumber, after: SQLValue) -> [SQLValue] {
        let label = source.label
        func lease(_ state: NodeID, _ holder: String, _ change: String) -> [SQLValue] {
            [.integer(turn), after, .integer(state), .text(label(state)), .text(holder), .text(change)]
        }
        func step(_ state: NodeID, _ generation: Int?, _ step: String, _ detail: String?) -> [SQLValue] {
            [
                .integer(turn), after, .integer(state), .text(label(state)), SQLValue(generation), .text(step),
                SQLValue(detail),
            ]
        }
        switch event {
        case .write(let state, let old, let new):
            return [
                .integer(turn), .integer(state), .text(label(state)), .text(old.text), .text(new.text),
                SQLValue(new.json?.jsonText), SQLValue(false),
            ]
        case .writeDiscarded(let state, let value):
            return [
                .integer(turn), .integer(state), .text(label(state)), .text(value.text), .text(value.text),
                SQLValue(value.json?.jsonText), SQLValue(true),
            ]
        case .recompute(let state, let old, let new, let changed, let trigger):
            return [
                .integer(turn), after, .integer(state), .text(label(state)), SQLValue(old?.text), SQLValue(new?.text),
                SQLValue(new?.json?.jsonText), SQLValue(changed), SQLValue(trigger), SQLValue(trigger.map(label)),
            ]
        case .edgeAdded(let consumer, let producer), .edgeRemoved(let consumer, let producer):
            let change = if case .edgeAdded = event { "added" } else { "removed" }
            return [
                .integer(turn), after, .integer(consumer), .text(label(consumer)), .integer(producer),
                .text(label(producer)), .text(change),
            ]
        case .leaseAcquired(let state, let holder): return lease(state, holder, "acquired")
        case .leaseReleased(let state, let holder): return lease(state, holder, "released")
        case .leaseRenewed(let state, let holder): return lease(state, holder, "renewed")
        case .generationStarted(let state, let generation, let policy):
            return step(state, generation, "started", policy.rawValue)
        case .generationCancelled(let state, let generation): return step(state, generation, "cancelled", nil)
        case .generationAccepted(let state, let generation, let outcome):
            return step(state, generation, "accepted", outcome)
        case .generationRejected(let state, let generation): return step(state, generation, "rejected", nil)
        case .asyncStatus(let state, let kind, _, _, let error):
            return step(state, nil, "status", kind.rawValue + (error.map { ": \($0)" } ?? ""))
        case .refreshResolved(let state, let generation, let outcome):
            return step(state, generation, "refresh", outcome)
        default:
            return []
        }
    }
}
