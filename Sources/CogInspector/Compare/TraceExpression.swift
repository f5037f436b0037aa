public import CogTraceFormat
import CogTraceStore

/// A condition on the recorded graph at one turn, as `bisect` and `expect` take it. The grammar
/// is in `docs/inspector.md`; `TraceExpression.parse` reads it.
public indirect enum TraceExpression: Equatable {
    /// How a value compares with a literal.
    public enum Comparison: String, CaseIterable, Sendable {
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    /// A literal as written: its text, and its typed reading.
    public enum Literal: Equatable, Sendable {
        case number(Double, text: String)
        case bool(Bool)
        case null
        case text(String)
    }

    /// A state the expression names, resolved against the trace, with a field path into its value.
    public struct StateReference: Equatable, Sendable {
        /// The state's id in the trace.
        public let id: NodeID
        /// The label as written.
        public let label: String
        /// `.weather.temperatureF`, or empty for the whole value.
        public let path: String
        /// The path read into its steps.
        public let fieldPath: JSONPath

        /// A reference to state `id`, written `label`, into its value at `path`.
        public init(id: NodeID, label: String, path: String) {
            self.id = id
            self.label = label
            self.path = path
            fieldPath = JSONPath(path)
        }

        /// `word` split into the longest prefix `isLabel` accepts and the field path after it
        /// (`weather.forecast[10001].temperatureF` → the forecast's label and `.temperatureF`);
        /// nil when no prefix ending before a `.` or `[` is a label.
        public static func split(_ word: String, isLabel: (String) -> Bool) -> (label: String, path: String)? {
            var end = word.endIndex
            while end > word.startIndex {
                let candidate = String(word[..<end])
                let path = String(word[end...])
                if isLabel(candidate), path.isEmpty || path.hasPrefix(".") || path.hasPrefix("[") {
                    return (candidate, path)
                }
                guard let dot = word[..<end].lastIndex(where: { $0 == "." || $0 == "[" }) else { break }
                end = dot
            }
            return nil
        }
    }

    /// `STATE[.field] OP LITERAL`: false when the state does not exist or the field is missing.
    case compare(StateReference, Comparison, Literal)
    /// `changed STATE`: the turn gave the state a new value (a write, or a recompute that changed it).
    case changed(StateReference)
    /// `exists STATE`: the state is live after the turn.
    case exists(StateReference)
    /// `leased STATE`: something holds a lease on it.
    case leased(StateReference)
    /// `status STATE == KIND`: an async state's status kind (`pending`, `success`, `failure`…).
    case status(StateReference, Comparison, AsyncStatusKind)
    case not(TraceExpression)
    case and(TraceExpression, TraceExpression)
    case or(TraceExpression, TraceExpression)

    /// Whether the expression holds for `graph`, the graph after `turn`.
    public func holds(in graph: GraphSnapshot, turn: TraceTurn?) -> Bool {
        switch self {
        case .compare(let reference, let comparison, let literal):
            guard let state = graph.states[reference.id] else { return false }
            let whole = state.value?.json ?? state.value.map { JSONValue.string($0.text) } ?? .null
            guard let actual = reference.path.isEmpty ? whole : whole.value(at: reference.fieldPath) else {
                return false
            }
            return Self.compare(actual, comparison, literal)
        case .changed(let reference):
            guard let turn else { return false }
            return turn.events.contains { $0.setsValue(of: reference.id) }
        case .exists(let reference):
            return graph.states[reference.id] != nil
        case .leased(let reference):
            return !(graph.states[reference.id]?.leases.isEmpty ?? true)
        case .status(let reference, let comparison, let kind):
            guard let async = graph.states[reference.id]?.async else { return false }
            return comparison == .equal ? async.kind == kind : async.kind != kind
        case .not(let inner):
            return !inner.holds(in: graph, turn: turn)
        case .and(let left, let right):
            return left.holds(in: graph, turn: turn) && right.holds(in: graph, turn: turn)
        case .or(let left, let right):
            return left.holds(in: graph, turn: turn) || right.holds(in: graph, turn: turn)
        }
    }

    /// The states the expression reads a field of: what `fieldOfTextOnlyValue` looks at, worked
    /// out once for a command that evaluates the expression at many turns.
    public var fieldReferences: [StateReference] { states.filter { !$0.path.isEmpty } }

    /// The first of `fields` whose value in `graph` was recorded as text only (its type was not
    /// `Encodable`): such a value has no fields, so the expression cannot be evaluated there, and
    /// saying false would be an answer the trace cannot give.
    public static func fieldOfTextOnlyValue(among fields: [StateReference], in graph: GraphSnapshot) -> StateReference?
    {
        fields.first { reference in graph.states[reference.id]?.value.map { $0.json == nil } ?? false }
    }

    /// Numbers compare as numbers, booleans and `nil` by equality, and anything else by its text
    /// (so `weather.currentZip == 10001` matches the string "10001").
    static func compare(_ actual: JSONValue, _ comparison: Comparison, _ literal: Literal) -> Bool {
        let order: Int?
        switch (literal, actual) {
        case (.number(let expected, _), _) where actual.doubleValue != nil:
            order = actual.doubleValue.flatMap { ordering($0, expected) }
        case (.number(let expected, _), .string(let text)) where Double(text) != nil:
            order = Double(text).flatMap { ordering($0, expected) }
        case (.bool(let expected), .bool(let flag)):
            order = flag == expected ? 0 : nil
        case (.bool, _), (.null, _):
            order = actual == .null && literal == .null ? 0 : nil
        default:
            order = ordering(actual.stringValue ?? actual.jsonText, literal.text)
        }
        switch comparison {
        case .equal: return order == 0
        case .notEqual: return order != 0
        case .less: return order.map { $0 < 0 } ?? false
        case .lessOrEqual: return order.map { $0 <= 0 } ?? false
        case .greater: return order.map { $0 > 0 } ?? false
        case .greaterOrEqual: return order.map { $0 >= 0 } ?? false
        }
    }

    private static func ordering<T: Comparable>(_ lhs: T, _ rhs: T) -> Int {
        lhs < rhs ? -1 : (lhs == rhs ? 0 : 1)
    }

    /// The states the expression names, in order of first mention.
    public var states: [StateReference] {
        switch self {
        case .compare(let reference, _, _), .changed(let reference), .exists(let reference), .leased(let reference),
            .status(let reference, _, _):
            [reference]
        case .not(let inner): inner.states
        case .and(let left, let right), .or(let left, let right):
            // The left side's states once: asked inside the filter, a long chain of `or`s asked
            // for them again for every state on the right, exponentially in its length.
            { first in first + right.states.filter { !first.contains($0) } }(left.states)
        }
    }
}

extension TraceExpression.Literal {
    /// The literal as it would be written.
    var text: String {
        switch self {
        case .number(_, let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .null: "nil"
        case .text(let text): text
        }
    }
}
