/// The line form of each record: one JSON object per line, `type` first.
extension TraceHeader {
    package var jsonValue: JSONValue {
        let members: [(String, JSONValue)] = [
            ("type", .string("header")), ("format", .string(format)), ("version", .string(version)),
            ("minReader", .string(minimumReaderVersion)), ("producer", .string(producer)), ("run", .string(runID)),
            ("title", .string(title)), ("clock", .string(clock)), ("mode", .string(mode)),
            ("capacity", .int(capacity)), ("keyframeEvery", .int(keyframeInterval)),
        ]
        return .object(
            members + (writer.map { [("writer", $0.jsonValue)] } ?? []) + (ci.map { [("ci", $0.jsonValue)] } ?? [])
                + (test.map { [("test", .string($0))] } ?? []))
    }

    /// Reads a header record; nil if a member is missing.
    package init?(jsonValue: JSONValue) {
        guard let format = jsonValue["format"]?.stringValue, let version = jsonValue["version"]?.stringValue else {
            return nil
        }
        self.init(
            runID: jsonValue["run"]?.stringValue ?? "", title: jsonValue["title"]?.stringValue ?? "",
            clock: jsonValue["clock"]?.stringValue ?? "monotonic", mode: jsonValue["mode"]?.stringValue ?? "ring",
            capacity: jsonValue["capacity"]?.intValue ?? 0, keyframeInterval: jsonValue["keyframeEvery"]?.intValue ?? 0)
        self.format = format
        self.version = version
        minimumReaderVersion = jsonValue["minReader"]?.stringValue ?? version
        producer = jsonValue["producer"]?.stringValue ?? ""
        if let writer = jsonValue["writer"], let pid = writer["pid"]?.intValue {
            self.writer = TraceWriterProcess(
                pid: pid, started: writer["started"]?.intValue ?? 0, host: writer["host"]?.stringValue ?? "")
        }
        test = jsonValue["test"]?.stringValue
        if let ci = jsonValue["ci"], case .object = ci {
            let metadata = TraceRunMetadata(jsonValue: ci)
            if !metadata.isEmpty { self.ci = metadata }
        }
    }
}

extension TraceWriterProcess {
    /// `{"pid":…,"started":…,"host":…}`, the header's `writer` member.
    package var jsonValue: JSONValue {
        .object([("pid", .int(pid)), ("started", .int(started)), ("host", .string(host))])
    }
}

extension TraceStateInfo: JSONMemberRecord {
    /// The state record's members, written straight into a file's bytes by recorders.
    package func addMembers(to members: inout some JSONMembers & ~Copyable) {
        members.add("type", literal: "state")
        members.add("id", id)
        members.add("label", label)
        members.add("decl", declaration)
        members.add("key", key)
        members.add("shape", shape)
        members.add("valueType", valueType)
        members.add("lifetime", lifetime)
        members.add("policy", policy?.rawValue)
    }

    /// Reads a state record; nil if a member is missing.
    package init?(jsonValue: JSONValue) {
        guard let id = jsonValue["id"]?.nodeID, let label = jsonValue["label"]?.stringValue else { return nil }
        self.init(
            id: id, label: label, declaration: jsonValue["decl"]?.stringValue ?? label,
            key: jsonValue["key"]?.stringValue,
            shape: StateShape(rawValue: jsonValue["shape"]?.stringValue ?? StateShape.automatic.rawValue),
            valueType: jsonValue["valueType"]?.stringValue ?? "",
            lifetime: StateLifetime(rawValue: jsonValue["lifetime"]?.stringValue ?? StateLifetime.app.rawValue),
            policy: jsonValue["policy"]?.stringValue.map(AsyncPolicyName.init(rawValue:)))
    }
}

extension TraceTurn: JSONMemberRecord {
    /// The turn record's members; `write(to:)` is how recorders write turns.
    package func addMembers(to members: inout some JSONMembers & ~Copyable) {
        addHeading(to: &members)
        members.add("events", events)
    }

    /// Appends the turn's record with the events `addEvents` writes in place of `events`:
    /// how a writer that makes events as it writes them writes a turn.
    /// Spelled out, byte for byte what `addMembers` adds, since a stream writes one a turn.
    package func write(to output: inout ByteBuffer, events addEvents: (inout JSONArrayWriter) -> Void) {
        output.append(#"{"type":"turn","seq":"#)
        output.appendDecimal(sequence.rawValue)
        output.append(#","name":"#)
        JSONValue.writeString(name, to: &output)
        output.append(#","origin":"#)
        JSONValue.writeString(origin.rawValue, to: &output)
        output.append(#","cause":"#)
        if let cause { output.appendDecimal(cause.rawValue) } else { output.append("null") }
        output.append(#","start":"#)
        output.appendDecimal(start)
        output.append(#","duration":"#)
        output.appendDecimal(duration)
        output.append(#","events":"#)
        JSONArrayWriter.write(to: &output, addEvents)
        output.append(UInt8(ascii: "}"))
    }

    /// Every member but the events.
    private func addHeading(to members: inout some JSONMembers & ~Copyable) {
        members.add("type", literal: "turn")
        members.add("seq", sequence.rawValue)
        members.add("name", name)
        members.add("origin", origin)
        members.add("cause", cause?.rawValue)
        members.add("start", start)
        members.add("duration", duration)
    }

    /// The `idle` record holding what happened after this turn, or nil when nothing did.
    package var afterJSONValue: JSONValue? {
        after.isEmpty ? nil : IdleRecord(turn: self).jsonValue
    }

    /// Appends the `idle` record of what happened after turn `sequence`, with the events
    /// `addEvents` writes (byte for byte what `afterJSONValue` writes of the same events); the
    /// caller knows there are some.
    package static func writeIdle(
        after sequence: Int, to output: inout ByteBuffer, events addEvents: (inout JSONArrayWriter) -> Void
    ) {
        output.append(#"{"type":"idle","after":"#)
        output.appendDecimal(sequence)
        output.append(#","events":"#)
        JSONArrayWriter.write(to: &output, addEvents)
        output.append(UInt8(ascii: "}"))
    }
}

/// The `idle` record of what happened after a turn and before the next.
private struct IdleRecord: JSONMemberRecord {
    let turn: TraceTurn

    func addMembers(to members: inout some JSONMembers & ~Copyable) {
        Self.addHeading(to: &members, after: turn.sequence.rawValue)
        members.add("events", turn.after)
    }

    static func addHeading(to members: inout some JSONMembers & ~Copyable, after sequence: Int) {
        members.add("type", literal: "idle")
        members.add("after", sequence)
    }
}

extension TraceTrailer {
    package var jsonValue: JSONValue {
        .object([
            ("type", .string("trailer")), ("ok", .bool(ok)), ("turns", .int(turns)), ("evicted", .int(evicted)),
            ("dropped", .int(dropped)), ("keyframes", .int(keyframes)),
        ])
    }

    package init?(jsonValue: JSONValue) {
        guard let ok = jsonValue["ok"]?.boolValue else { return nil }
        self.init(
            ok: ok, turns: jsonValue["turns"]?.intValue ?? 0, evicted: jsonValue["evicted"]?.intValue ?? 0,
            dropped: jsonValue["dropped"]?.intValue ?? 0, keyframes: jsonValue["keyframes"]?.intValue ?? 0)
    }
}

extension GraphSnapshot {
    /// The keyframe record of the graph as it stood just before turn `sequence`.
    package func keyframeJSONValue(before sequence: Int) -> JSONValue {
        .object([("type", .string("keyframe")), ("before", .int(sequence))] + keyframeMembers)
    }
}
