/// The record form of trace events: `{"e":kind, ...}` with short member names.
extension TraceEvent: JSONMemberRecord {
    /// The event's members, in record order, whichever form they go to.
    package func addMembers(to members: inout some JSONMembers & ~Copyable) {
        switch self {
        case .stateCreated(let state, let value):
            return Self.addCreated(to: &members, state: state, value: value)
        case .write(let state, let old, let new):
            return Self.addWrite(to: &members, state: state, old: old, new: new)
        case .recompute(let state, let old, let new, let changed, let trigger):
            return Self.addRecompute(to: &members, state: state, old: old, new: new, changed: changed, trigger: trigger)
        case .edgeAdded(let consumer, let producer):
            return Self.addEdge(to: &members, kind: "edgeAdded", consumer: consumer, producer: producer)
        case .edgeRemoved(let consumer, let producer):
            return Self.addEdge(to: &members, kind: "edgeRemoved", consumer: consumer, producer: producer)
        case .dependencies(let consumer, let producers):
            return Self.addDependencies(to: &members, consumer: consumer, producers: producers)
        case .notice(let state):
            return Self.addSubject(to: &members, kind: "notice", member: "s", state)
        case .leaseAcquired(let state, let holder), .leaseReleased(let state, let holder),
            .leaseRenewed(let state, let holder):
            return Self.addLease(to: &members, kind: kindName, state: state, holder: holder)
        case .graceScheduled(let state, let milliseconds):
            return Self.addGraceScheduled(to: &members, state: state, milliseconds: milliseconds)
        case .reactionRun(let registration):
            return Self.addSubject(to: &members, kind: "reaction", member: "r", registration)
        default:
            break
        }
        members.add("e", literal: kindName)
        switch self {
        case .stateCreated, .write, .recompute, .edgeAdded, .edgeRemoved, .dependencies, .notice, .reactionRun,
            .leaseAcquired, .leaseReleased, .leaseRenewed, .graceScheduled:
            break
        case .seeded(let state, let value), .writeDiscarded(let state, let value):
            members.add("s", state)
            members.add("v", value)
        case .unregistered(let registration):
            members.add("r", registration)
        case .boundaryAttached(let state), .graceExpired(let state):
            members.add("s", state)
        case .offer(let state, let subscriber, let value):
            members.add("s", state)
            members.add("sub", subscriber)
            members.add("v", value)
        case .scopeRetired(let registration), .taskCancelled(let registration), .taskFinished(let registration):
            members.add("r", registration)
        case .watchRun(let registration, let old, let new):
            members.add("r", registration)
            members.add("old", old)
            members.add("new", new)
        case .stateReleased(let state, let reason):
            members.add("s", state)
            members.add("reason", reason)
        case .generationStarted(let state, let generation, let policy):
            members.add("s", state)
            members.add("g", generation)
            members.add("policy", policy)
        case .generationCancelled(let state, let generation), .generationRejected(let state, let generation):
            members.add("s", state)
            members.add("g", generation)
        case .generationAccepted(let state, let generation, let outcome):
            members.add("s", state)
            members.add("g", generation)
            members.add("outcome", outcome)
        case .asyncStatus(let state, let kind, let isLoading, let hasSucceeded, let error):
            members.add("s", state)
            members.add("kind", kind)
            members.add("loading", isLoading)
            members.add("succeeded", hasSucceeded)
            members.add("error", error)
        case .refreshResolved(let state, let generation, let outcome):
            members.add("s", state)
            members.add("g", generation)
            members.add("outcome", outcome)
        case .registered(let registration, let name, let kind):
            members.add("r", registration)
            members.add("name", name)
            members.add("kind", kind)
        case .scopeOpened(let registration, let name, let identity):
            members.add("r", registration)
            members.add("name", name)
            members.add("id", identity)
        case .taskStarted(let registration, let name):
            members.add("r", registration)
            members.add("name", name)
        case .turnDropped(let name, let reason):
            members.add("name", name)
            members.add("reason", reason)
        case .diagnostic(let kind, let message, let path):
            members.add("kind", kind)
            members.add("message", message)
            members.add("path", path)
        }
    }

    /// A `created` event's members. The busiest kinds are spelled by these functions, which
    /// `addMembers` calls and a recorder's writer calls with values it never made an event of.
    package static func addCreated(to members: inout some JSONMembers & ~Copyable, state: NodeID, value: TraceValue?) {
        members.add("e", literal: "created")
        members.add("s", state)
        members.add("v", value)
    }

    /// A `write` event's members.
    package static func addWrite(
        to members: inout some JSONMembers & ~Copyable, state: NodeID, old: TraceValue, new: TraceValue
    ) {
        members.add("e", literal: "write")
        members.add("s", state)
        members.add("old", old)
        members.add("new", new)
    }

    /// A `recompute` event's members.
    package static func addRecompute(
        to members: inout some JSONMembers & ~Copyable, state: NodeID, old: TraceValue?, new: TraceValue?,
        changed: Bool, trigger: NodeID?
    ) {
        members.add("e", literal: "recompute")
        members.add("s", state)
        members.add("old", old)
        members.add("new", new)
        members.add("changed", changed)
        members.add("by", trigger?.rawValue)
    }

    /// An `edgeAdded` or `edgeRemoved` event's members.
    package static func addEdge(
        to members: inout some JSONMembers & ~Copyable, kind: StaticString, consumer: NodeID, producer: NodeID
    ) {
        members.add("e", literal: kind)
        members.add("s", consumer)
        members.add("p", producer)
    }

    /// A `deps` event's members.
    package static func addDependencies(
        to members: inout some JSONMembers & ~Copyable, consumer: NodeID, producers: [NodeID]
    ) {
        members.add("e", literal: "deps")
        members.add("s", consumer)
        members.add("ps", producers)
    }

    /// A lease event's members: `kind` is `leaseAcquired`, `leaseReleased` or `leaseRenewed`.
    package static func addLease(
        to members: inout some JSONMembers & ~Copyable, kind: StaticString, state: NodeID, holder: String
    ) {
        members.add("e", literal: kind)
        members.add("s", state)
        members.add("holder", holder)
    }

    /// A `graceScheduled` event's members.
    package static func addGraceScheduled(
        to members: inout some JSONMembers & ~Copyable, state: NodeID, milliseconds: Int
    ) {
        members.add("e", literal: "graceScheduled")
        members.add("s", state)
        members.add("ms", milliseconds)
    }

    /// The members of an event that names only its state or registration, as `member`.
    package static func addSubject(
        to members: inout some JSONMembers & ~Copyable, kind: StaticString, member: StaticString, _ id: NodeID
    ) {
        members.add("e", literal: kind)
        members.add(member, id)
    }

    /// Reads an event back.
    ///
    /// - Returns: nil for an event kind this reader does not know (a newer minor version).
    /// - Throws: `TraceEventDecodingError` when a known kind lacks a member it needs.
    package init?(jsonValue: JSONValue) throws(TraceEventDecodingError) {
        guard let kind = jsonValue["e"]?.stringValue else { throw TraceEventDecodingError(member: "e") }
        func int(_ name: String) throws(TraceEventDecodingError) -> Int {
            guard let value = jsonValue[name]?.intValue else { throw TraceEventDecodingError(member: name) }
            return value
        }
        func optionalInt(_ name: String) -> Int? { jsonValue[name]?.intValue }
        func id(_ name: String) throws(TraceEventDecodingError) -> NodeID {
            guard let id = jsonValue[name]?.nodeID else { throw TraceEventDecodingError(member: name) }
            return id
        }
        func optionalID(_ name: String) throws(TraceEventDecodingError) -> NodeID? {
            guard let member = jsonValue[name], member != .null else { return nil }
            guard let id = member.nodeID else { throw TraceEventDecodingError(member: name) }
            return id
        }
        func string(_ name: String) throws(TraceEventDecodingError) -> String {
            guard let value = jsonValue[name]?.stringValue else { throw TraceEventDecodingError(member: name) }
            return value
        }
        func bool(_ name: String) throws(TraceEventDecodingError) -> Bool {
            guard let value = jsonValue[name]?.boolValue else { throw TraceEventDecodingError(member: name) }
            return value
        }
        func value(_ name: String) throws(TraceEventDecodingError) -> TraceValue {
            guard let member = jsonValue[name], let value = TraceValue(jsonValue: member) else {
                throw TraceEventDecodingError(member: name)
            }
            return value
        }
        func optionalValue(_ name: String) -> TraceValue? { jsonValue[name].flatMap(TraceValue.init(jsonValue:)) }

        switch kind {
        case "created": self = .stateCreated(state: try id("s"), value: optionalValue("v"))
        case "seeded": self = .seeded(state: try id("s"), value: try value("v"))
        case "write": self = .write(state: try id("s"), old: try value("old"), new: try value("new"))
        case "writeDiscarded": self = .writeDiscarded(state: try id("s"), value: try value("v"))
        case "recompute":
            self = .recompute(
                state: try id("s"), old: optionalValue("old"), new: optionalValue("new"),
                changed: try bool("changed"), trigger: try optionalID("by"))
        case "edgeAdded": self = .edgeAdded(consumer: try id("s"), producer: try id("p"))
        case "edgeRemoved": self = .edgeRemoved(consumer: try id("s"), producer: try id("p"))
        case "deps":
            guard let producers = jsonValue["ps"]?.nodeIDs else {
                throw TraceEventDecodingError(member: "ps")
            }
            self = .dependencies(consumer: try id("s"), producers: producers)
        case "unregistered": self = .unregistered(registration: try id("r"))
        case "pinned": self = .boundaryAttached(state: try id("s"))
        case "notice": self = .notice(state: try id("s"))
        case "offer": self = .offer(state: try id("s"), subscriber: try id("sub"), value: try value("v"))
        case "reaction": self = .reactionRun(registration: try id("r"))
        case "watch": self = .watchRun(registration: try id("r"), old: optionalValue("old"), new: try value("new"))
        case "leaseAcquired": self = .leaseAcquired(state: try id("s"), holder: try string("holder"))
        case "leaseReleased": self = .leaseReleased(state: try id("s"), holder: try string("holder"))
        case "leaseRenewed": self = .leaseRenewed(state: try id("s"), holder: try string("holder"))
        case "graceScheduled": self = .graceScheduled(state: try id("s"), milliseconds: try int("ms"))
        case "graceExpired": self = .graceExpired(state: try id("s"))
        case "released": self = .stateReleased(state: try id("s"), reason: try string("reason"))
        case "generationStarted":
            self = .generationStarted(
                state: try id("s"), generation: try int("g"), policy: AsyncPolicyName(rawValue: try string("policy")))
        case "generationCancelled": self = .generationCancelled(state: try id("s"), generation: try int("g"))
        case "generationAccepted":
            self = .generationAccepted(state: try id("s"), generation: try int("g"), outcome: try string("outcome"))
        case "generationRejected": self = .generationRejected(state: try id("s"), generation: try int("g"))
        case "asyncStatus":
            self = .asyncStatus(
                state: try id("s"), kind: AsyncStatusKind(rawValue: try string("kind")),
                isLoading: try bool("loading"),
                hasSucceeded: try bool("succeeded"), error: jsonValue["error"]?.stringValue)
        case "refreshResolved":
            self = .refreshResolved(state: try id("s"), generation: optionalInt("g"), outcome: try string("outcome"))
        case "registered":
            self = .registered(
                registration: try id("r"), name: try string("name"),
                kind: RegistrationKind(rawValue: try string("kind")))
        case "scopeOpened":
            self = .scopeOpened(
                registration: try id("r"), name: try string("name"), identity: jsonValue["id"]?.stringValue)
        case "scopeRetired": self = .scopeRetired(registration: try id("r"))
        case "taskStarted": self = .taskStarted(registration: try id("r"), name: try string("name"))
        case "taskCancelled": self = .taskCancelled(registration: try id("r"))
        case "taskFinished": self = .taskFinished(registration: try id("r"))
        case "turnDropped": self = .turnDropped(name: try string("name"), reason: try string("reason"))
        case "diagnostic":
            self = .diagnostic(
                kind: try string("kind"), message: try string("message"),
                path: (jsonValue["path"]?.arrayValue ?? []).compactMap(\.stringValue))
        default: return nil
        }
    }
}

/// An event record that lacks a member its kind needs.
public struct TraceEventDecodingError: Error, CustomStringConvertible, Equatable {
    /// The missing or malformed member.
    public let member: String
    /// What was wrong, when more can be said than that the member is missing or malformed.
    public var detail: String?

    /// An error about `member`, saying `detail` when given.
    public init(member: String, detail: String? = nil) {
        self.member = member
        self.detail = detail
    }

    public var description: String { detail ?? "event lacks a valid '\(member)'" }
}
