/// Writes members straight into bytes as one compact JSON object, byte for byte what
/// `JSONObjectBuilder`'s object writes.
package struct JSONObjectWriter: JSONMembers, BracketWriter, ~Copyable {
    private var output: ByteBuffer
    private var isFirst = true

    fileprivate init(output: consuming ByteBuffer) {
        self.output = output
    }

    fileprivate consuming func finish() -> ByteBuffer { output }

    /// Appends to `output` the object whose members `addMembers` adds.
    @inline(__always)
    package static func write(to output: inout ByteBuffer, _ addMembers: (inout JSONObjectWriter) -> Void) {
        bracket(output: &output, opening: UInt8(ascii: "{"), closing: UInt8(ascii: "}"), addMembers)
    }

    @inline(__always)
    private mutating func name(_ name: StaticString) {
        output.appendMemberName(name, afterComma: !isFirst)
        isFirst = false
    }

    package mutating func add(_ name: StaticString, _ value: JSONValue) {
        self.name(name)
        value.write(to: &output)
    }

    package mutating func add(_ name: StaticString, _ value: Int) {
        self.name(name)
        output.appendDecimal(value)
    }

    package mutating func add(_ name: StaticString, digitsOf number: Int) {
        self.name(name)
        output.append(UInt8(ascii: "\""))
        output.appendDecimal(number)
        output.append(UInt8(ascii: "\""))
    }

    package mutating func add(_ name: StaticString, _ value: Bool) { add(name, JSONValue.bool(value)) }

    package mutating func add(_ name: StaticString, _ value: String) {
        self.name(name)
        JSONValue.writeString(value, to: &output)
    }

    package mutating func add(_ name: StaticString, literal: StaticString) {
        self.name(name)
        output.append(UInt8(ascii: "\""))
        output.append(literal)
        output.append(UInt8(ascii: "\""))
    }

    package mutating func add(_ name: StaticString, _ value: TraceValue?) {
        self.name(name)
        guard let value else { return JSONValue.null.write(to: &output) }
        value.write(to: &output)
    }

    package mutating func add(_ name: StaticString, _ ids: [NodeID]) {
        self.name(name)
        output.append(UInt8(ascii: "["))
        for (index, id) in ids.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.appendDecimal(id.rawValue)
        }
        output.append(UInt8(ascii: "]"))
    }

    package mutating func add(_ name: StaticString, _ strings: [String]) {
        add(name, JSONValue.array(strings.map(JSONValue.string)))
    }

    package mutating func add(_ name: StaticString, _ events: [TraceEvent]) {
        add(name) { array in
            for index in events.indices { array.append(events[index]) }
        }
    }

    /// An array whose elements `addElements` writes, for elements made as they are written
    /// rather than held first.
    package mutating func add(_ name: StaticString, elements addElements: (inout JSONArrayWriter) -> Void) {
        self.name(name)
        JSONArrayWriter.write(to: &output, addElements)
    }
}

/// Writes the elements of one JSON array straight into bytes, commas between them.
package struct JSONArrayWriter: BracketWriter, ~Copyable {
    private var output: ByteBuffer
    private var isFirst = true

    fileprivate init(output: consuming ByteBuffer) {
        self.output = output
    }

    fileprivate consuming func finish() -> ByteBuffer { output }

    /// Appends to `output` the array whose elements `addElements` appends.
    @inline(__always)
    package static func write(to output: inout ByteBuffer, _ addElements: (inout JSONArrayWriter) -> Void) {
        bracket(output: &output, opening: UInt8(ascii: "["), closing: UInt8(ascii: "]"), addElements)
    }

    /// Appends the object whose members `addMembers` adds as the next element.
    @inline(__always)
    package mutating func appendObject(_ addMembers: (inout JSONObjectWriter) -> Void) {
        separate()
        JSONObjectWriter.write(to: &output, addMembers)
    }

    /// Appends the next element as the bytes `write` spells out: for the busiest events,
    /// cheaper spelled than built member by member; `write` must leave one JSON value.
    @inline(__always)
    package mutating func appendSpelled(_ write: (inout ByteBuffer) -> Void) {
        separate()
        write(&output)
    }

    /// Appends elements to an array whose brackets are written elsewhere, later: `elements`
    /// holds those written so far, comma-separated, and `hasElements` says whether it holds
    /// any. For an array whose elements arrive in parts before it can be closed.
    package static func continueElements(
        in elements: inout ByteBuffer, hasElements: inout Bool, _ addElements: (inout JSONArrayWriter) -> Void
    ) {
        var writer = JSONArrayWriter(output: elements)
        writer.isFirst = !hasElements
        addElements(&writer)
        hasElements = !writer.isFirst
        elements = writer.finish()
    }

    @inline(__always)
    private mutating func separate() {
        if isFirst { isFirst = false } else { output.append(UInt8(ascii: ",")) }
    }
}

/// A writer of one JSON object or array that holds the output while it writes: the bytes move
/// into the writer and back rather than being copied, so nesting costs nothing per level.
private protocol BracketWriter: ~Copyable {
    init(output: consuming ByteBuffer)
    /// Hands the output back, ending the writer.
    consuming func finish() -> ByteBuffer
}

extension BracketWriter where Self: ~Copyable {
    /// Appends `opening`, what `body` writes, then `closing` to `output`.
    @inline(__always)
    fileprivate static func bracket(
        output: inout ByteBuffer, opening: UInt8, closing: UInt8, _ body: (inout Self) -> Void
    ) {
        output.append(opening)
        var writer = Self(output: output)
        body(&writer)
        output = writer.finish()
        output.append(closing)
    }
}
