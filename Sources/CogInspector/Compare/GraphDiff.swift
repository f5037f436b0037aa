public import CogTraceFormat

/// What differs between two recorded graphs (usually the graph after turn A and after turn B):
/// values, states and registrations that came and went, edges, leases and async status.
public struct GraphDiff: Equatable {
    /// The parts of a diff `--only` can select.
    public enum Aspect: String, CaseIterable, Sendable {
        case values, edges, leases, async, lifecycle
    }

    /// A state whose value differs, with the fields that differ when both sides are structured.
    public struct ValueChange: Equatable {
        /// The state's id.
        public let state: NodeID
        /// The value at the first turn.
        public let old: TraceValue?
        /// The value at the second turn.
        public let new: TraceValue?
        /// The fields that differ, when both values are structured and differ below the top.
        public let fields: [FieldChange]
    }

    /// A dependency edge: `consumer` (a state or a registration) reads `producer`.
    public struct Edge: Hashable, Sendable {
        /// The reader: a state or a registration.
        public let consumer: NodeID
        /// The state it reads.
        public let producer: NodeID
    }

    /// A lease: `holder` keeps `state` alive.
    public struct Lease: Hashable, Sendable {
        /// The state held.
        public let state: NodeID
        /// Who holds it: a reaction, watch, scope or export, by name.
        public let holder: String
    }

    /// An async state whose status or generation differs; nil on the side where it did not exist.
    public struct AsyncChange: Equatable {
        /// The async state's id.
        public let state: NodeID
        /// Its status at the first turn.
        public let old: GraphSnapshot.AsyncStatus?
        /// Its status at the second turn.
        public let new: GraphSnapshot.AsyncStatus?
    }

    /// States live at both turns whose values differ.
    public var valueChanges: [ValueChange] = []
    /// States live only at the second turn.
    public var statesCreated: [NodeID] = []
    /// States live only at the first turn.
    public var statesReleased: [NodeID] = []
    /// Edges only at the second turn.
    public var edgesAdded: [Edge] = []
    /// Edges only at the first turn.
    public var edgesRemoved: [Edge] = []
    /// Leases held only at the second turn.
    public var leasesAcquired: [Lease] = []
    /// Leases held only at the first turn.
    public var leasesReleased: [Lease] = []
    /// Async states whose status or generation differs.
    public var asyncChanges: [AsyncChange] = []
    /// Registrations live only at the second turn.
    public var registrationsOpened: [NodeID] = []
    /// Registrations live only at the first turn.
    public var registrationsRetired: [NodeID] = []

    /// Whether nothing differs.
    public var isEmpty: Bool { self == GraphDiff() }

    /// Compares `before` with `after`. Everything is listed in id order so the result is stable.
    public init(from before: GraphSnapshot, to after: GraphSnapshot) {
        let stateIDs = Set(before.states.keys).union(after.states.keys).sorted()
        for id in stateIDs {
            let old = before.states[id]
            let new = after.states[id]
            switch (old, new) {
            case (nil, .some): statesCreated.append(id)
            case (.some, nil): statesReleased.append(id)
            default: break
            }
            if let old, let new, old.value != new.value {
                let fields =
                    old.value?.json.flatMap { oldJSON in new.value?.json.map { oldJSON.fieldChanges(to: $0) } } ?? []
                let isFieldwise = fields.count > 1 || fields.first?.path.isEmpty == false
                valueChanges.append(
                    ValueChange(state: id, old: old.value, new: new.value, fields: isFieldwise ? fields : []))
            }
            if old?.async != new?.async, old != nil, new != nil {
                asyncChanges.append(AsyncChange(state: id, old: old?.async, new: new?.async))
            }
            let oldLeases = Set(old?.leases ?? [])
            let newLeases = Set(new?.leases ?? [])
            leasesAcquired += newLeases.subtracting(oldLeases).sorted().map { Lease(state: id, holder: $0) }
            leasesReleased += oldLeases.subtracting(newLeases).sorted().map { Lease(state: id, holder: $0) }
        }
        let oldEdges = Self.edges(of: before)
        let newEdges = Self.edges(of: after)
        edgesAdded = newEdges.subtracting(oldEdges).sorted(by: Self.edgeOrder)
        edgesRemoved = oldEdges.subtracting(newEdges).sorted(by: Self.edgeOrder)
        let oldRegistrations = Set(before.registrations.keys)
        let newRegistrations = Set(after.registrations.keys)
        registrationsOpened = newRegistrations.subtracting(oldRegistrations).sorted()
        registrationsRetired = oldRegistrations.subtracting(newRegistrations).sorted()
    }

    private init() {}

    /// Every edge of a graph, from states' and registrations' dependency lists.
    static func edges(of graph: GraphSnapshot) -> Set<Edge> {
        var edges = Set<Edge>()
        for state in graph.states.values {
            for producer in state.dependencies { edges.insert(Edge(consumer: state.id, producer: producer)) }
        }
        for registration in graph.registrations.values {
            for producer in registration.dependencies {
                edges.insert(Edge(consumer: registration.id, producer: producer))
            }
        }
        return edges
    }

    private static func edgeOrder(_ lhs: Edge, _ rhs: Edge) -> Bool {
        (lhs.consumer, lhs.producer) < (rhs.consumer, rhs.producer)
    }

    /// The same diff keeping only `aspects`.
    public func keeping(_ aspects: Set<Aspect>) -> GraphDiff {
        var kept = GraphDiff()
        if aspects.contains(.values) { kept.valueChanges = valueChanges }
        if aspects.contains(.edges) {
            kept.edgesAdded = edgesAdded
            kept.edgesRemoved = edgesRemoved
        }
        if aspects.contains(.leases) {
            kept.leasesAcquired = leasesAcquired
            kept.leasesReleased = leasesReleased
        }
        if aspects.contains(.async) { kept.asyncChanges = asyncChanges }
        if aspects.contains(.lifecycle) {
            kept.statesCreated = statesCreated
            kept.statesReleased = statesReleased
            kept.registrationsOpened = registrationsOpened
            kept.registrationsRetired = registrationsRetired
        }
        return kept
    }
}
