import CogTraceFormat
import CogTraceStore

/// An expression watched in a followed trace: a state (or a field of its value), whose value
/// is reported when it changes, or a condition (the grammar of `bisect` and `expect`), whose
/// truth is.
struct Watch {
    /// What is watched.
    enum Subject {
        case value(TraceExpression.StateReference)
        case condition(TraceExpression)
    }

    /// The expression as typed.
    let text: String
    /// What it reads; nil while it names a state the trace has not named yet (a followed trace
    /// names states as they are first created).
    var subject: Subject?
    /// Its value in the graph after the newest turn applied.
    var value: Cell

    /// The value of the subject in `graph` after `turn` (nil for idle events); absent while the
    /// subject is not known.
    static func evaluate(_ subject: Subject?, in graph: GraphSnapshot, turn: TraceTurn?) -> Cell {
        switch subject {
        case nil:
            return .absent
        case .condition(let expression):
            return .bool(expression.holds(in: graph, turn: turn))
        case .value(let reference):
            guard let state = graph.states[reference.id] else { return .absent }
            guard !reference.path.isEmpty else { return .value(state.value) }
            let whole = state.value?.json ?? state.value.map { JSONValue.string($0.text) } ?? .null
            return whole.value(at: reference.fieldPath).map { .json(StructuredValue($0)) } ?? .absent
        }
    }
}

/// A watched expression's value changing in an arriving turn: what `watch` prints.
public struct WatchChange: Equatable {
    /// The turn (or the idle time after it) that changed it.
    public let turn: TurnReference
    /// The turn's name, e.g. the op's.
    public let name: String
    /// The expression as typed.
    public let watch: String
    /// Its value now.
    public let value: Cell
    /// Its value before.
    public let previous: Cell
}

extension CommandContext {
    /// Reads what `watch` was given: a lone state reference watches the value, anything else is
    /// a condition.
    func watchSubject(_ text: String) throws(InspectorError) -> Watch.Subject {
        let words = try ExpressionLexer.tokens(of: text.trimmed.unquoted)
        if words.count == 1,
            let (label, path) = TraceExpression.StateReference.split(
                words[0], isLabel: { trace.stateID(labelled: $0) != nil })
        {
            return .value(TraceExpression.StateReference(id: try resolveState(label), label: label, path: path))
        }
        if words.count == 1, !words[0].contains(where: { "=!<>".contains($0) }) {
            _ = try resolveState(words[0])  // an unknown label: the error with a suggestion
        }
        return .condition(try expression(text))
    }
}
