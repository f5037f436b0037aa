import Foundation

/// A value as a trace holds it: a bounded text rendering for display, a structured JSON form
/// when the type is `Encodable` (for field-wise diffs and replay), or a redaction marker.
///
/// A recorder keeps the runtime's value as is and renders it only when the trace is written,
/// so recording costs a box, not a rendering.
public struct TraceValue {
    enum Storage {
        /// The runtime's value, boxed so that no existential sits in a trace value: copying one
        /// (or an event, or a snapshot's state, holding one) is then retains, not calls through
        /// value witnesses, which had been a quarter of a stream writer's time.
        case pending(PendingValue)
        case rendered(text: String, json: JSONValue?)
        /// An `Int`, rendered when asked: its text is its digits, its JSON the number.
        case integer(Int)
        case redacted
    }

    var storage: Storage

    /// The longest text rendering kept, in characters; longer ones end with "…".
    public static let maxTextLength = 200

    /// A value already rendered (as a reader loads it).
    package init(text: String, json: JSONValue? = nil) {
        storage = .rendered(text: text, json: json)
    }

    /// A value the recorder holds as the runtime gave it, rendered on first use.
    package init(pending value: Any) {
        storage = .pending(PendingValue(value))
    }

    /// A runtime value rendered now, with nothing of it kept: what `TraceValue(pending:)`
    /// gives once settled, without boxing the value first.
    package init(settling value: Any) {
        let (text, json) = Self.render(value)
        self.init(text: text, json: json)
    }

    /// The marker shown instead of a redacted value.
    public static var redacted: TraceValue { TraceValue(storage: .redacted) }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// The structured form as compact JSON text, when the value's type is `Encodable` and it is
    /// not redacted: what a program outside the package reads to get the value's fields.
    public var jsonText: String? { json?.jsonText }

    /// Whether the recorder withheld this value.
    public var isRedacted: Bool {
        if case .redacted = storage { return true }
        return false
    }

    /// The display text: bounded, and "‹redacted›" for a redacted value.
    public var text: String { rendered.text }

    /// The structured form, when the value's type is `Encodable` and it is not redacted.
    package var json: JSONValue? { rendered.json }

    /// A text that is equal for equal values in any process: the display text, or the JSON
    /// (whose sets and dictionaries are in one order) when the value holds a collection, whose
    /// description may follow the hash seed. Comparisons of runs put it in their sentences.
    package var comparableText: String {
        let (text, json) = rendered
        guard let json, json.holdsSeveralElements else { return text }
        return json.jsonText
    }

    var rendered: (text: String, json: JSONValue?) {
        switch storage {
        case .pending(let box): TraceValue.render(box.value)
        case .rendered(let text, let json): (text, json)
        case .integer(let number): TraceValue.primitive(number)
        case .redacted: ("‹redacted›", nil)
        }
    }

    /// Renders a runtime value: its description (an optional shows its wrapped value or `nil`),
    /// cut to `maxTextLength`, and its JSON encoding when it has one.
    static func render(_ value: Any) -> (text: String, json: JSONValue?) {
        if let primitive = renderPrimitive(value) { return primitive }
        var text = describe(value)
        if text.count > maxTextLength { text = String(text.prefix(maxTextLength - 1)) + "…" }
        return (text, RecordedValueCoding.encode(unwrapped(value)))
    }

    /// The common scalar types, rendered without reflection or an encoder.
    private static func renderPrimitive(_ value: Any) -> (text: String, json: JSONValue?)? {
        switch value {
        case let number as Int: primitive(number)
        case let flag as Bool: primitive(flag)
        case let number as Double: primitive(number)
        case let text as String where text.count <= maxTextLength: (text, .string(text))
        case let number as Int?: number.map { (String($0), .int($0)) } ?? ("nil", .null)
        case let text as String? where text == nil: ("nil", .null)
        default: nil
        }
    }

    private static func primitive(_ number: Int) -> (text: String, json: JSONValue?) { (String(number), .int(number)) }
    private static func primitive(_ flag: Bool) -> (text: String, json: JSONValue?) {
        (flag ? "true" : "false", .bool(flag))
    }
    private static func primitive(_ number: Double) -> (text: String, json: JSONValue?) {
        ("\(number)", .double(number))
    }

    /// An `Int`, `Bool` or `Double` rendered as `render` renders it, without boxing it first:
    /// how a recorder's writer renders the values it keeps as bits.
    package init(rendering number: Int) {
        storage = .integer(number)
    }

    package init(rendering flag: Bool) {
        let (text, json) = Self.primitive(flag)
        self.init(text: text, json: json)
    }

    package init(rendering number: Double) {
        let (text, json) = Self.primitive(number)
        self.init(text: text, json: json)
    }

    private static func describe(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return "nil" }
            return describe(wrapped)
        }
        return RecordedValueCoding.text(of: value) ?? String(describing: value)
    }

    /// An optional's wrapped value (so `Duration?` encodes as a `Duration`), or the value itself.
    private static func unwrapped(_ value: Any) -> Any {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional, let wrapped = mirror.children.first?.value else { return value }
        return unwrapped(wrapped)
    }
}

/// A runtime value a trace value holds until it is rendered.
final class PendingValue {
    let value: Any

    init(_ value: Any) {
        self.value = value
    }
}

extension TraceValue: Equatable {
    /// Values compare as data: by their JSON when both have one (a description may list a set's
    /// or a dictionary's elements in hash order, which differs between processes), else by text.
    public static func == (lhs: TraceValue, rhs: TraceValue) -> Bool {
        guard lhs.isRedacted == rhs.isRedacted else { return false }
        let (left, right) = (lhs.rendered, rhs.rendered)
        if let leftJSON = left.json, let rightJSON = right.json { return leftJSON == rightJSON }
        return left.text == right.text && left.json == right.json
    }
}

extension TraceValue: JSONMemberRecord {
    /// The record form's members: `{"t":text,"j":json}` or `{"redacted":true}`.
    package func addMembers(to members: inout some JSONMembers & ~Copyable) {
        if isRedacted { return members.add("redacted", true) }
        if case .integer(let number) = storage {
            members.add("t", digitsOf: number)
            return members.add("j", number)
        }
        let (text, json) = rendered
        members.add("t", text)
        if let json { members.add("j", json) }
    }

    /// Appends the record form, byte for byte what `addMembers` adds. An integer, what most
    /// recorded values are, is spelled out in place rather than member by member.
    package func write(to output: inout ByteBuffer) {
        guard case .integer(let number) = storage else {
            return JSONObjectWriter.write(to: &output) { addMembers(to: &$0) }
        }
        // The digits are made once and copied for `j`: an `Int` is most of what a stream
        // writes, each written twice.
        output.append(#"{"t":""#)
        let digitsStart = output.count
        output.appendDecimal(number)
        let digits = digitsStart..<output.count
        output.append(#"","j":"#)
        output.appendCopy(of: digits)
        output.append(UInt8(ascii: "}"))
    }

    /// Reads the record form back; nil if it is not one.
    package init?(jsonValue: JSONValue) {
        if jsonValue["redacted"]?.boolValue == true {
            self = .redacted
            return
        }
        guard let text = jsonValue["t"]?.stringValue else { return nil }
        self.init(text: text, json: jsonValue["j"])
    }
}
