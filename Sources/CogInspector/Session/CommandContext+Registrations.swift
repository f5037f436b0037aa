import CogTraceFormat
import CogTraceStore

/// What a command can be asked about: a state, or a registration (a reaction, watch, scope,
/// task, mechanism or export) by its name.
enum Subject {
    case state(NodeID)
    /// Every registration made under one name, oldest first (a reopened scope or re-registered
    /// watch gets a new id), and the kind it was first registered as.
    case registration(name: String, ids: [NodeID], kind: RegistrationKind)

    /// The ids an event about this subject carries.
    var ids: Set<NodeID> {
        switch self {
        case .state(let id): [id]
        case .registration(_, let ids, _): Set(ids)
        }
    }
}

extension CommandContext {
    /// The state or registration a person named; a state's label wins over a registration's name.
    /// - Throws: `InspectorError` naming the closest state or registration.
    func resolveSubject(_ label: String) throws(InspectorError) -> Subject {
        if let id = trace.stateID(labelled: label) { return .state(id) }
        let ids = timeline.registrations(named: label)
        if let first = ids.first { return .registration(name: label, ids: ids, kind: registrationKind(first)) }
        let labels = trace.states.values.map(\.label)
        let names = Set(timeline.registrationNames.values)
        if let suggestion = closestMatch(to: label, among: labels + names) {
            let kind = labels.contains(suggestion) ? "state" : "reaction"
            throw InspectorError("unknown \(kind) '\(label)'; did you mean '\(suggestion)'?")
        }
        throw InspectorError("unknown state or reaction '\(label)'; 'state' lists the states")
    }

    /// The kind registration `id` was made as (`reaction` when the trace never said).
    func registrationKind(_ id: NodeID) -> RegistrationKind {
        timeline.registrationKinds[id] ?? .reaction
    }

    /// Why a registration name was refused where only states are accepted, or nil when no
    /// registration has that name.
    func registrationRefusal(_ label: String, command: String) -> InspectorError? {
        guard let id = timeline.registrations(named: label).first else { return nil }
        return InspectorError(
            "'\(label)' is a \(registrationKind(id).rawValue), not a state; \(command) takes states "
                + "(history, why, deps, get and turns --touching take reactions too)")
    }

    /// Every event about the registrations `ids` up to turn `limit` (all of them when nil), in
    /// the order they happened.
    func registrationEntries(_ ids: [NodeID], through limit: TurnNumber? = nil) -> [StateTimeline.Entry] {
        ids.flatMap { id in
            Array(limit.map { timeline.entries(of: id, through: $0) } ?? timeline.entries(of: id))
        }
        .filter { $0.event?.registration != nil || $0.event?.state.map(ids.contains) == true }
        .sorted { $0.precedes($1) }
    }

    /// What a registration read at `run`: the dependencies it recorded in that same turn after
    /// the run (a run records what it read as it finishes), else the last ones before it.
    func reads(of id: NodeID, at run: StateTimeline.Entry, among entries: [StateTimeline.Entry]) -> [NodeID] {
        var latest: [NodeID] = []
        for entry in entries {
            guard case .dependencies(id, let producers) = entry.event else { continue }
            if run.precedes(entry) {
                if entry.turn == run.turn, entry.isIdle == run.isIdle { return producers }
                break
            }
            latest = producers
        }
        return latest
    }

    /// Which of `reads` changed value in the run's turn before the run: why it ran.
    func changedBefore(_ run: StateTimeline.Entry, among reads: [NodeID]) -> [NodeID] {
        reads.filter { dependency in
            for entry in timeline.entries(of: dependency, through: run.turn).reversed() {
                guard entry.turn == run.turn else { return false }
                if entry.isIdle == run.isIdle, entry.position < run.position,
                    entry.event?.setsValue(of: dependency) == true
                {
                    return true
                }
            }
            return false
        }
    }

    /// Whether `entry` is a run of its registration: a reaction's or scope's body, a watch's
    /// evaluation, or a watch firing.
    static func isRun(_ entry: StateTimeline.Entry) -> Bool {
        switch entry.event {
        case .reactionRun, .watchRun: true
        default: false
        }
    }
}

extension CommandContext {
    /// One field of a state's value at the cursor, e.g. `.temperatureF` of a forecast.
    /// - Throws: `InspectorError` when the path is malformed or the value has no such field.
    func field(_ path: String, of id: NodeID) throws(InspectorError) -> [Report] {
        let fieldPath = JSONPath(path)
        guard fieldPath.components != nil else {
            throw InspectorError("'\(path)' is not a field path; write .name or [index], e.g. '.temperatureF'")
        }
        guard let state = try graph().states[id] else {
            return [.message("\(label(id)) does not exist at turn \(cursor) (not yet created, or released)")]
        }
        guard let value = state.value else { return [.message("\(label(id)) has no value yet at turn \(cursor)")] }
        guard let json = value.json else {
            throw InspectorError("\(label(id))'s value was recorded as text only ('\(value.text)'); it has no fields")
        }
        guard let piece = json.value(at: fieldPath) else {
            let members = json.objectValue.map { $0.map(\.0) } ?? []
            let known = members.isEmpty ? "" : "; its fields are \(members.joined(separator: ", "))"
            throw InspectorError("\(label(id)) has no field '\(path)' at turn \(cursor)\(known)")
        }
        return [
            .fields([
                Field("state", .state(reference(id))), Field("field", .text(path)),
                Field("value", .value(TraceValue(text: piece.stringValue ?? piece.jsonText, json: piece))),
            ])
        ]
    }
}

extension CommandContext {
    /// A state at the cursor: its value, shape, version, settle mark and, for an async state,
    /// its status.
    func stateFields(of id: NodeID) throws(InspectorError) -> [Report] {
        let graph = try graph()
        guard let state = graph.states[id] else {
            return [.message("\(label(id)) does not exist at turn \(cursor) (not yet created, or released)")]
        }
        var fields: [Field] = [
            Field("state", .state(reference(id))),
            Field("value", state.value.map { .value($0) } ?? .text("nil (not computed yet)")),
            Field("shape", .optionalText(trace.states[id]?.shape.rawValue)), Field("version", .integer(state.version)),
            Field("settle", .text(graph.settleMark(of: id))),
        ]
        if let async = state.async {
            fields.append(Field("status", .text(async.kind.rawValue)))
            fields.append(Field("loading", .bool(async.isLoading)))
            fields.append(Field("has succeeded", .bool(async.hasSucceeded)))
            if let error = async.error { fields.append(Field("error", .text(error))) }
            fields.append(Field("generation", .integer(async.generation)))
        }
        return [.fields(fields)]
    }
}
