/// Trace events as array elements, through functions that take no generic parameter: a writer
/// in another module calling the generic forms would run them unspecialized, every member going
/// through a witness table (that was a third of a stream writer's time).
extension JSONArrayWriter {
    /// Appends `event` as the next element.
    package mutating func append(_ event: TraceEvent) {
        appendObject { event.addMembers(to: &$0) }
    }

    /// Appends a `created` event.
    package mutating func appendCreated(state: NodeID, value: TraceValue?) {
        appendObject { TraceEvent.addCreated(to: &$0, state: state, value: value) }
    }

    /// Appends a `write` event.
    package mutating func appendWrite(state: NodeID, old: TraceValue, new: TraceValue) {
        appendObject { TraceEvent.addWrite(to: &$0, state: state, old: old, new: new) }
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
        appendObject { TraceEvent.addEdge(to: &$0, kind: kind, consumer: consumer, producer: producer) }
    }

    /// Appends a `deps` event.
    package mutating func appendDependencies(consumer: NodeID, producers: [NodeID]) {
        appendObject { TraceEvent.addDependencies(to: &$0, consumer: consumer, producers: producers) }
    }

    /// Appends a `leaseAcquired`, `leaseReleased` or `leaseRenewed` event.
    package mutating func appendLease(kind: StaticString, state: NodeID, holder: String) {
        appendObject { TraceEvent.addLease(to: &$0, kind: kind, state: state, holder: holder) }
    }

    /// Appends a `graceScheduled` event.
    package mutating func appendGraceScheduled(state: NodeID, milliseconds: Int) {
        appendObject { TraceEvent.addGraceScheduled(to: &$0, state: state, milliseconds: milliseconds) }
    }

    /// Appends a `notice` event.
    package mutating func appendNotice(state: NodeID) {
        appendObject { TraceEvent.addSubject(to: &$0, kind: "notice", member: "s", state) }
    }

    /// Appends a `reaction` event.
    package mutating func appendReactionRun(registration: NodeID) {
        appendObject { TraceEvent.addSubject(to: &$0, kind: "reaction", member: "r", registration) }
    }
}

extension TraceStateInfo {
    /// Appends the state record, without a generic parameter for the same reason.
    package func write(to output: inout ByteBuffer) {
        JSONObjectWriter.write(to: &output) { addMembers(to: &$0) }
    }
}
