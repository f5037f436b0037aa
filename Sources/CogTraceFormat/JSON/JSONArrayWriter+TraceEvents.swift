/// Trace events as array elements, through functions that take no generic parameter: a writer
/// in another module calling the generic forms would run them unspecialized, every member going
/// through a witness table (that was a third of a stream writer's time).
extension JSONArrayWriter {
    /// Appends `event` as the next element.
    package mutating func append(_ event: TraceEvent) {
        appendObject { event.addMembers(to: &$0) }
    }

    /// Appends a `created` event, spelled out (as the busiest kinds all are here: byte for
    /// byte what their `TraceEvent.add…` functions add, checked against them by the tests).
    package mutating func appendCreated(state: NodeID, value: TraceValue?) {
        appendSpelled { output in
            output.append(#"{"e":"created","s":"#)
            output.appendDecimal(state.rawValue)
            output.append(#","v":"#)
            Self.write(value, to: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Appends a `write` event.
    package mutating func appendWrite(state: NodeID, old: TraceValue, new: TraceValue) {
        appendSpelled { output in
            output.append(#"{"e":"write","s":"#)
            output.appendDecimal(state.rawValue)
            output.append(#","old":"#)
            old.write(to: &output)
            output.append(#","new":"#)
            new.write(to: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Appends a `recompute` event, spelled out: byte for byte what `TraceEvent.addRecompute`
    /// adds, at a third of the instructions (it is most of what a stream writer writes).
    package mutating func appendRecompute(
        state: NodeID, old: TraceValue?, new: TraceValue?, changed: Bool, trigger: NodeID?
    ) {
        appendSpelled { output in
            output.append(#"{"e":"recompute","s":"#)
            output.appendDecimal(state.rawValue)
            output.append(#","old":"#)
            Self.write(old, to: &output)
            output.append(#","new":"#)
            Self.write(new, to: &output)
            output.append(changed ? #","changed":true,"by":"# : #","changed":false,"by":"#)
            if let trigger { output.appendDecimal(trigger.rawValue) } else { output.append("null") }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// A value as an event member holds it: its record form, or null.
    private static func write(_ value: borrowing TraceValue?, to output: inout ByteBuffer) {
        switch value {
        case .some(let value): value.write(to: &output)
        case .none: output.append("null")
        }
    }

    /// Appends an `edgeAdded` or `edgeRemoved` event.
    package mutating func appendEdge(kind: StaticString, consumer: NodeID, producer: NodeID) {
        appendSpelled { output in
            Self.open(kind, state: consumer, to: &output)
            output.append(#","p":"#)
            output.appendDecimal(producer.rawValue)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Appends a `deps` event.
    package mutating func appendDependencies(consumer: NodeID, producers: [NodeID]) {
        appendSpelled { output in
            output.append(#"{"e":"deps","s":"#)
            output.appendDecimal(consumer.rawValue)
            output.append(#","ps":["#)
            for index in producers.indices {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                output.appendDecimal(producers[index].rawValue)
            }
            output.append("]}")
        }
    }

    /// Opens an event of `kind` about `state`: `{"e":"kind","s":state`.
    private static func open(_ kind: StaticString, state: NodeID, to output: inout ByteBuffer) {
        output.append(#"{"e":""#)
        output.append(kind)
        output.append(#"","s":"#)
        output.appendDecimal(state.rawValue)
    }

    /// Appends a `leaseAcquired`, `leaseReleased` or `leaseRenewed` event.
    package mutating func appendLease(kind: StaticString, state: NodeID, holder: String) {
        appendObject { TraceEvent.addLease(to: &$0, kind: kind, state: state, holder: holder) }
    }

    /// Appends a `graceScheduled` event.
    package mutating func appendGraceScheduled(state: NodeID, milliseconds: Int) {
        appendSpelled { output in
            Self.open("graceScheduled", state: state, to: &output)
            output.append(#","ms":"#)
            output.appendDecimal(milliseconds)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Appends a `notice` event.
    package mutating func appendNotice(state: NodeID) {
        appendSpelled { output in
            Self.open("notice", state: state, to: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Appends a `reaction` event.
    package mutating func appendReactionRun(registration: NodeID) {
        appendObject { TraceEvent.addSubject(to: &$0, kind: "reaction", member: "r", registration) }
    }
}

extension TraceStateInfo {
    // A state record spelled out, head then tail: byte for byte what `addMembers` adds, for a
    // stream whose every new state is one of these (a lattice declares thousands a run).

    /// The members that name the state, `{"type":"state","id":…,"label":…,"decl":…,"key":…`,
    /// for a state whose label is its declaration's, with `[key]` after it for a keyed one (as
    /// a recorder labels states), written without making the label: the declaration is
    /// escaped once and its bytes copied for `decl`, and the key escaped into the label
    /// (`JSONValue.writeEscaped`, which escapes pieces as it would their concatenation).
    package static func writeHead(id: Int, declaration: String, key: String?, to output: inout ByteBuffer) {
        output.append(#"{"type":"state","id":"#)
        output.appendDecimal(id)
        output.append(#","label":""#)
        let declarationStart = output.count
        JSONValue.writeEscaped(declaration, to: &output)
        let declarationBytes = declarationStart..<output.count
        if let key {
            output.append(UInt8(ascii: "["))
            JSONValue.writeEscaped(key, to: &output)
            output.append(UInt8(ascii: "]"))
        }
        output.append(#"","decl":""#)
        output.appendCopy(of: declarationBytes)
        output.append(#"","key":"#)
        write(key, to: &output)
    }

    /// The members its declaration's other states share, and the record's end:
    /// `,"shape":…,"valueType":…,"lifetime":…,"policy":…}`.
    package static func writeTail(
        shape: String, valueType: String, lifetime: String, policy: String?, to output: inout ByteBuffer
    ) {
        output.append(#","shape":"#)
        JSONValue.writeString(shape, to: &output)
        output.append(#","valueType":"#)
        JSONValue.writeString(valueType, to: &output)
        output.append(#","lifetime":"#)
        JSONValue.writeString(lifetime, to: &output)
        output.append(#","policy":"#)
        write(policy, to: &output)
        output.append(UInt8(ascii: "}"))
    }

    private static func write(_ text: String?, to output: inout ByteBuffer) {
        guard let text else { return output.append("null") }
        JSONValue.writeString(text, to: &output)
    }
}
