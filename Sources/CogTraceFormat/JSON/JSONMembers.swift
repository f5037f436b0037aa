/// Where a record's members go, in order: into a `JSONValue` object (`JSONObjectBuilder`), or
/// straight into the bytes of a trace line (`JSONObjectWriter`). A record spells its members
/// once, against this protocol, so the two forms cannot drift apart, and the writer's form
/// builds no tree of values only to take it apart again.
package protocol JSONMembers: ~Copyable {
    mutating func add(_ name: StaticString, _ value: JSONValue)
    mutating func add(_ name: StaticString, _ value: Int)
    /// A number's decimal digits as a string, `"42"`: an `Int` value's text.
    mutating func add(_ name: StaticString, digitsOf number: Int)
    mutating func add(_ name: StaticString, _ value: Bool)
    mutating func add(_ name: StaticString, _ value: String)
    /// A string known when the program was built, which needs no escaping: a record's kind.
    mutating func add(_ name: StaticString, literal: StaticString)
    /// A value as its record form, `{"t":…,"j":…}`, or null.
    mutating func add(_ name: StaticString, _ value: TraceValue?)
    mutating func add(_ name: StaticString, _ ids: [NodeID])
    mutating func add(_ name: StaticString, _ strings: [String])
    /// Each event as its record form, in an array.
    mutating func add(_ name: StaticString, _ events: [TraceEvent])
}

/// A record that spells its members once (`addMembers`) and gets both forms from that: its
/// `jsonValue`, and `write(to:)`, which appends the same bytes without building the value.
package protocol JSONMemberRecord {
    func addMembers(to members: inout some JSONMembers & ~Copyable)
}

extension JSONMemberRecord {
    /// The record as a JSON object.
    package var jsonValue: JSONValue {
        var members = JSONObjectBuilder()
        addMembers(to: &members)
        return members.object
    }

    /// Appends the record to `output`, byte for byte what `jsonValue` writes.
    package func write(to output: inout ByteBuffer) {
        JSONObjectWriter.write(to: &output) { addMembers(to: &$0) }
    }
}

extension JSONMembers where Self: ~Copyable {
    /// The number, or null.
    mutating func add(_ name: StaticString, _ value: Int?) {
        guard let value else { return add(name, JSONValue.null) }
        add(name, value)
    }

    /// The text, or null.
    mutating func add(_ name: StaticString, _ value: String?) {
        guard let value else { return add(name, JSONValue.null) }
        add(name, value)
    }

    mutating func add(_ name: StaticString, _ id: NodeID) { add(name, id.rawValue) }
    mutating func add(_ name: StaticString, _ kind: some TraceKind) { add(name, kind.rawValue) }
}

/// Collects members into a `JSONValue` object.
package struct JSONObjectBuilder: JSONMembers {
    private(set) var members: [(String, JSONValue)] = []

    package init() {}

    package var object: JSONValue { .object(members) }

    package mutating func add(_ name: StaticString, _ value: JSONValue) { members.append((name.description, value)) }
    package mutating func add(_ name: StaticString, _ value: Int) { add(name, .int(value)) }
    package mutating func add(_ name: StaticString, digitsOf number: Int) { add(name, String(number)) }
    package mutating func add(_ name: StaticString, _ value: Bool) { add(name, .bool(value)) }
    package mutating func add(_ name: StaticString, _ value: String) { add(name, .string(value)) }
    package mutating func add(_ name: StaticString, literal: StaticString) { add(name, .string(literal.description)) }
    package mutating func add(_ name: StaticString, _ value: TraceValue?) { add(name, value?.jsonValue ?? .null) }
    package mutating func add(_ name: StaticString, _ ids: [NodeID]) {
        add(name, .array(ids.map { .int($0.rawValue) }))
    }
    package mutating func add(_ name: StaticString, _ strings: [String]) {
        add(name, .array(strings.map(JSONValue.string)))
    }
    package mutating func add(_ name: StaticString, _ events: [TraceEvent]) {
        add(name, .array(events.map(\.jsonValue)))
    }
}
