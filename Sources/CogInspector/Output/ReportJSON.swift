import CogTraceFormat

/// The JSON shapes of reports and cells (docs/inspector.md, "JSON output"): numbers stay
/// numbers, recorded values stay JSON, turns and states are small objects.
enum ReportJSON {
    static func value(_ report: Report) -> JSONValue {
        switch report {
        case .message(let message):
            .object([("message", .string(message))])
        case .warning(let warning):
            .object([("warning", .string(warning))])
        case .fields(let fields):
            .object([("fields", .object(fields.map { ($0.name, value($0.value)) }))])
        case .table(let columns, let rows):
            .object([
                ("columns", .array(columns.map(JSONValue.string))),
                ("rows", .array(rows.map { row in .object(zip(columns, row).map { ($0, value($1)) }) })),
            ])
        case .streamedTable(let columns, let rows):
            // Renderers read streamed tables whole first; this reads one left inside a part.
            value(rows.materialized(columns: columns).first ?? .table(columns: columns, rows: []))
        case .lines(let lines):
            .object([("lines", .array(lines.map(JSONValue.string)))])
        case .document(let text):
            .object([("document", .string(text))])
        case .section(let title, let parts):
            .object([("section", .string(title)), ("parts", .array(parts.map(value)))])
        case .causalChain(let chain):
            .object([("chain", value(chain))])
        case .events(let events):
            .object([("events", .array(events.map(value)))])
        case .changes(let changes):
            .object([("changes", .array(changes.map(value)))])
        case .watchChange(let change):
            .object([
                (
                    "watchChange",
                    .object([
                        ("turn", value(change.turn)), ("name", .string(change.name)),
                        ("watch", .string(change.watch)), ("value", value(change.value)),
                        ("previous", value(change.previous)),
                    ])
                )
            ])
        case .verdict(let verdict):
            .object([("verdict", .string(verdict.rawValue))])
        case .clearScreen:
            .object([("clearScreen", .bool(true))])
        case .playback(let playback):
            .object([("playback", .array(playback.turns.map(JSONValue.int)))])
        }
    }

    /// A cell: text a string, a number a number, a recorded value
    /// `{"text":…,"json":…}` (json only when the value's type is `Encodable`), a turn
    /// `{"turn":5,"afterTurn":false}`, a state `{"id":3,"label":"…"}`, nothing `null`.
    static func value(_ cell: Cell) -> JSONValue {
        switch cell {
        case .text(let text): .string(text)
        case .integer(let number): .int(number)
        case .real(let number): number.isFinite ? .double(number) : .null
        case .bool(let flag): .bool(flag)
        case .value(let recorded): recorded.map { value($0) } ?? .null
        case .turn(let reference): value(reference)
        case .state(let reference): value(reference)
        case .json(let piece): piece.json
        case .list(let cells): .array(cells.map(value))
        case .cursorMark(let isCursor): .bool(isCursor)
        case .absent: .null
        }
    }

    static func value(_ recorded: TraceValue) -> JSONValue {
        if recorded.isRedacted { return .object([("text", .string(recorded.text)), ("redacted", .bool(true))]) }
        var members: [(String, JSONValue)] = [("text", .string(recorded.text))]
        if let json = recorded.json { members.append(("json", json)) }
        return .object(members)
    }

    static func value(_ reference: TurnReference) -> JSONValue {
        .object([("turn", .int(reference.turn)), ("afterTurn", .bool(reference.afterTurn))])
    }

    static func value(_ reference: StateReference) -> JSONValue {
        .object([("id", .int(reference.id)), ("label", .string(reference.label))])
    }

    private static func optional<T>(_ item: T?, _ encode: (T) -> JSONValue) -> JSONValue {
        item.map(encode) ?? .null
    }

    static func value(_ chain: CausalChain) -> JSONValue {
        .object([
            ("subject", value(chain.subject)), ("field", optional(chain.field, JSONValue.string)),
            ("at", value(chain.at)), ("note", optional(chain.note, JSONValue.string)),
            ("depthLimit", .int(chain.depthLimit)), ("cut", .int(chain.cut)), ("cutIsExact", .bool(chain.cutIsExact)),
            ("fullDepth", .int(chain.fullDepth)), ("links", .array(chain.links.map(value))),
        ])
    }

    static func value(_ link: CausalLink) -> JSONValue {
        .object([
            ("index", .int(link.index)), ("parent", optional(link.parent, JSONValue.int)), ("depth", .int(link.depth)),
            ("role", .string(link.role.rawValue)), ("state", value(link.state)),
            ("old", optional(link.old) { value($0) }), ("value", optional(link.value) { value($0) }),
            ("turn", optional(link.turn) { value($0) }), ("turnName", optional(link.turnName, JSONValue.string)),
            ("cause", .string(link.cause.rawValue)), ("root", .bool(link.isRoot)), ("changed", .bool(link.changed)),
            ("trigger", optional(link.trigger) { value($0) }), ("async", optional(link.asyncWork) { value($0) }),
            (
                "evicted",
                optional(link.evicted) {
                    .object([("from", .int($0.lowerBound.rawValue)), ("through", .int($0.upperBound.rawValue))])
                }
            ),
            ("sameAs", optional(link.sameAs, JSONValue.int)), ("causesCut", .bool(link.causesCut)),
            ("event", optional(link.event) { $0.jsonValue }), ("explanation", .string(link.explanation)),
            ("line", .string(link.line)),
        ])
    }

    static func value(_ work: CausalLink.AsyncWork) -> JSONValue {
        .object([
            ("generation", optional(work.generation, JSONValue.int)), ("started", optional(work.started) { value($0) }),
            (
                "reads",
                .array(
                    work.reads.map {
                        .object([("state", value($0.state)), ("value", optional($0.value) { value($0) })])
                    })
            ),
            ("summary", .string(work.summary)),
        ])
    }

    static func value(_ event: DescribedEvent) -> JSONValue {
        .object([
            ("turn", value(event.turn)), ("event", event.event.jsonValue), ("description", .string(event.description)),
        ])
    }

    static func value(_ change: DiffEntry) -> JSONValue {
        .object([
            ("aspect", .string(change.aspect.rawValue)), ("change", .string(change.change.rawValue)),
            ("subject", value(change.subject)), ("producer", optional(change.producer) { value($0) }),
            ("holder", optional(change.holder, JSONValue.string)), ("field", optional(change.field, JSONValue.string)),
            ("old", value(change.old)), ("new", value(change.new)), ("description", .string(change.description)),
        ])
    }
}
