/// The keyframe form of a snapshot: states and registrations sorted by id, so the same graph
/// always writes the same bytes.
extension GraphSnapshot {
    /// `{"states":[…],"registrations":[…]}` members for a keyframe record.
    package var keyframeMembers: [(String, JSONValue)] {
        let marks = settleMarks(of: states.keys)
        let stateValues = states.keys.sorted().compactMap { id -> JSONValue? in
            guard let state = states[id] else { return nil }
            var members: [(String, JSONValue)] = [
                ("id", .int(id)),
                ("v", state.value?.jsonValue ?? .null),
                ("ver", .int(state.version)),
                ("mark", .string(marks[id] ?? "clean")),
                ("deps", .array(state.dependencies.map(JSONValue.int))),
                (
                    "obs",
                    .array(
                        state.dependencies.indices.map {
                            .int(state.observedVersions.indices.contains($0) ? state.observedVersions[$0] : 0)
                        })
                ),
            ]
            if !state.leases.isEmpty { members.append(("leases", .array(state.leases.map(JSONValue.string)))) }
            if state.isPinned { members.append(("pinned", .bool(true))) }
            if state.isInGrace { members.append(("grace", .bool(true))) }
            if let async = state.async {
                members.append(
                    (
                        "async",
                        .object([
                            ("kind", .string(async.kind.rawValue)), ("loading", .bool(async.isLoading)),
                            ("succeeded", .bool(async.hasSucceeded)),
                            ("error", async.error.map(JSONValue.string) ?? .null),
                            ("g", .int(async.generation)), ("inFlight", .array(async.inFlight.map(JSONValue.int))),
                        ])
                    ))
            }
            return .object(members)
        }
        let registrationValues = registrations.keys.sorted().compactMap { id -> JSONValue? in
            guard let registration = registrations[id] else { return nil }
            return .object([
                ("id", .int(id)), ("name", .string(registration.name)), ("kind", .string(registration.kind.rawValue)),
                ("deps", .array(registration.dependencies.map(JSONValue.int))),
            ])
        }
        return [("states", .array(stateValues)), ("registrations", .array(registrationValues))]
    }

    /// Reads a keyframe record's snapshot back.
    /// - Throws: `TraceEventDecodingError` naming the first malformed member.
    package init(keyframe: JSONValue) throws(TraceEventDecodingError) {
        self.init()
        guard let stateValues = keyframe["states"]?.arrayValue else { throw TraceEventDecodingError(member: "states") }
        for value in stateValues {
            guard let id = value["id"]?.nodeID else { throw TraceEventDecodingError(member: "states.id") }
            var state = State(id: id, value: value["v"].flatMap(TraceValue.init(jsonValue:)))
            // Versions grow by one per write or change, so one near Int.max would overflow the
            // snapshot built from it; the format keeps every count below 2^53.
            state.version = value["ver"]?.intValue ?? 0
            guard TraceFormat.countRange.contains(state.version) else {
                throw TraceEventDecodingError(
                    member: "ver", detail: "state \(id)'s version \(state.version) is outside 0..<2^53")
            }
            if let deps = value["deps"], deps != .null {
                guard let ids = deps.nodeIDs else {
                    throw TraceEventDecodingError(
                        member: "deps", detail: "state \(id)'s dependencies are not ids in 0..<2^53")
                }
                state.dependencies = ids
            }
            let observed = value["obs"]?.arrayValue?.compactMap(\.intValue) ?? []
            if let bad = observed.first(where: { !TraceFormat.countRange.contains($0) }) {
                throw TraceEventDecodingError(
                    member: "obs", detail: "state \(id) observed version \(bad), outside 0..<2^53")
            }
            // At most one version per dependency; one the list lacks is unknown.
            state.observedVersions = Array(observed.prefix(state.dependencies.count))
            state.leases = value["leases"]?.arrayValue?.compactMap(\.stringValue) ?? []
            state.isPinned = value["pinned"]?.boolValue ?? false
            state.isInGrace = value["grace"]?.boolValue ?? false
            if let async = value["async"] {
                var status = AsyncStatus()
                status.kind = async["kind"]?.stringValue.map(AsyncStatusKind.init(rawValue:)) ?? .pending
                status.isLoading = async["loading"]?.boolValue ?? false
                status.hasSucceeded = async["succeeded"]?.boolValue ?? false
                status.error = async["error"]?.stringValue
                status.generation = async["g"]?.intValue ?? 0
                status.inFlight = async["inFlight"]?.arrayValue?.compactMap(\.intValue) ?? []
                state.async = status
            }
            states[id] = state
        }
        for value in keyframe["registrations"]?.arrayValue ?? [] {
            guard let id = value["id"]?.nodeID, let name = value["name"]?.stringValue,
                let kind = value["kind"]?.stringValue
            else {
                throw TraceEventDecodingError(member: "registrations")
            }
            var registration = Registration(id: id, name: name, kind: RegistrationKind(rawValue: kind))
            if let deps = value["deps"], deps != .null {
                guard let ids = deps.nodeIDs else {
                    throw TraceEventDecodingError(
                        member: "deps", detail: "registration \(id)'s dependencies are not ids in 0..<2^53")
                }
                registration.dependencies = ids
            }
            registrations[id] = registration
        }
    }
}
