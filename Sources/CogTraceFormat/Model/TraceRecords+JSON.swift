/// The line form of each record: one JSON object per line, `type` first.
extension TraceHeader {
    package var jsonValue: JSONValue {
        .object([
            ("type", .string("header")), ("format", .string(format)), ("version", .string(version)),
            ("minReader", .string(minimumReaderVersion)), ("producer", .string(producer)), ("run", .string(runID)),
            ("title", .string(title)), ("clock", .string(clock)), ("mode", .string(mode)),
            ("capacity", .int(capacity)), ("keyframeEvery", .int(keyframeInterval)),
        ])
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
    }
}

extension TraceStateInfo {
    package var jsonValue: JSONValue {
        .object([
            ("type", .string("state")), ("id", .int(id)), ("label", .string(label)),
            ("decl", .string(declaration)), ("key", key.map(JSONValue.string) ?? .null),
            ("shape", .string(shape.rawValue)),
            ("valueType", .string(valueType)), ("lifetime", .string(lifetime.rawValue)),
            ("policy", policy.map { .string($0.rawValue) } ?? .null),
        ])
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
    package func addMembers(to members: inout some JSONMembers) {
        members.add("type", "turn")
        members.add("seq", sequence.rawValue)
        members.add("name", name)
        members.add("origin", origin)
        members.add("cause", cause?.rawValue)
        members.add("start", start)
        members.add("duration", duration)
        members.add("events", events)
    }

    /// The `idle` record holding what happened after this turn, or nil when nothing did.
    package var afterJSONValue: JSONValue? {
        after.isEmpty ? nil : IdleRecord(turn: self).jsonValue
    }

    /// Appends the `idle` record to `output`, byte for byte what `afterJSONValue` writes;
    /// false (and nothing written) when nothing happened after this turn.
    package func writeAfter(to output: inout [UInt8]) -> Bool {
        guard !after.isEmpty else { return false }
        IdleRecord(turn: self).write(to: &output)
        return true
    }
}

/// The `idle` record of what happened after a turn and before the next.
private struct IdleRecord: JSONMemberRecord {
    let turn: TraceTurn

    func addMembers(to members: inout some JSONMembers) {
        members.add("type", "idle")
        members.add("after", turn.sequence.rawValue)
        members.add("events", turn.after)
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
