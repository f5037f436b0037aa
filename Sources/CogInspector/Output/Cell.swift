public import CogTraceFormat

/// A turn as an answer names it: turn N itself, or the idle time after turn N (work a read did
/// between turns, written `N+` in text).
public struct TurnReference: Equatable, Hashable, Sendable {
    /// The turn's sequence number.
    public let turn: TurnNumber
    /// Whether this is the time after the turn rather than the turn itself.
    public let afterTurn: Bool

    /// A reference to turn `turn`, or to the time after it.
    public init(_ turn: TurnNumber, afterTurn: Bool = false) {
        self.turn = turn
        self.afterTurn = afterTurn
    }
}

/// A state or registration as an answer names it: its id in the trace and its label.
public struct StateReference: Equatable, Hashable, Sendable {
    /// The id in the trace's state table (or the registration's id).
    public let id: NodeID
    /// The label a person reads, e.g. `weather.isNice[10001]`.
    public let label: String

    /// A reference to `id`, shown as `label`.
    public init(id: NodeID, label: String) {
        self.id = id
        self.label = label
    }
}

/// One typed cell of a table or field of a record: renderers decide how each kind looks (text
/// pads and truncates, JSON keeps numbers as numbers and recorded values as JSON).
public enum Cell: Equatable {
    /// Prose or a name.
    case text(String)
    /// A whole number: a count, a version, a generation.
    case integer(Int)
    /// A number with a fraction (a SQL REAL).
    case real(Double)
    /// A yes/no fact.
    case bool(Bool)
    /// A value as the trace recorded it; nil when there is none (never computed).
    case value(TraceValue?)
    /// A turn.
    case turn(TurnReference)
    /// A state or registration.
    case state(StateReference)
    /// A piece of a structured value, e.g. one field that a diff found changed.
    case json(StructuredValue)
    /// Several cells, e.g. the holders of a lease.
    case list([Cell])
    /// Whether a row is the one at the cursor: `◀` in text, a boolean in JSON.
    case cursorMark(Bool)
    /// Nothing to show (`-` in text, null in JSON).
    case absent
}

/// A named cell of a record (`get`, `info`, `turn N`'s header).
public struct Field: Equatable {
    /// The field's name, e.g. `version`.
    public let name: String
    /// Its value.
    public let value: Cell

    /// A field named `name` holding `value`.
    public init(_ name: String, _ value: Cell) {
        self.name = name
        self.value = value
    }
}

extension Cell {
    /// Text, or absent when `text` is nil.
    static func optionalText(_ text: String?) -> Cell { text.map(Cell.text) ?? .absent }
    /// An integer, or absent when `number` is nil.
    static func optionalInteger(_ number: Int?) -> Cell { number.map(Cell.integer) ?? .absent }
}

extension Cell {
    /// Whether the cell holds a recorded value (or a piece of one), the kind of text that can be
    /// any length and that text output cuts at the value width.
    var isRecordedValue: Bool {
        switch self {
        case .value, .json: true
        default: false
        }
    }
}
