import CogTrace

/// What differs between two recorded graphs (usually the graph after turn A and after turn B):
/// values, states and registrations that came and went, edges, leases and async status.
public struct GraphDiff: Equatable {
    /// The parts of a diff `--only` can select.
    public enum Aspect: String, CaseIterable, Sendable {
        case values, edges, leases, async, lifecycle
    }

    /// A state whose value differs, with the fields that differ when both sides are structured.
    public struct ValueChange: Equatable {
        public let state: Int
        public let old: TraceValue?
        public let new: TraceValue?
        public let fields: [FieldChange]
    }

    /// A dependency edge: `consumer` (a state or a registration) reads `producer`.
    public struct Edge: Hashable, Sendable {
        public let consumer: Int
        public let producer: Int
    }

    /// A lease: `holder` keeps `state` alive.
    public struct Lease: Hashable, Sendable {
        public let state: Int
        public let holder: String
    }

    /// An async state whose status or generation differs; nil on the side where it did not exist.
    public struct AsyncChange: Equatable {
        public let state: Int
        public let old: GraphSnapshot.AsyncStatus?
        public let new: GraphSnapshot.AsyncStatus?
    }

    public var valueChanges: [ValueChange] = []
    public var statesCreated: [Int] = []
    public var statesReleased: [Int] = []
    public var edgesAdded: [Edge] = []
    public var edgesRemoved: [Edge] = []
    public var leasesAcquired: [Lease] = []
    public var leasesReleased: [Lease] = []
    public var asyncChanges: [AsyncChange] = []
    public var registrationsOpened: [Int] = []
    public var registrationsRetired: [Int] = []

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
                let fields = old.value?.json.flatMap { oldJSON in new.value?.json.map { oldJSON.fieldChanges(to: $0) } } ?? []
                let isFieldwise = fields.count > 1 || fields.first?.path.isEmpty == false
                valueChanges.append(ValueChange(state: id, old: old.value, new: new.value, fields: isFieldwise ? fields : []))
            }
            if old?.async != new?.async, old != nil, new != nil {
                asyncChanges.append(AsyncChange(state: id, old: old?.async, new: new?.async))
            }
            let oldLeases = Set(old?.leases ?? []), newLeases = Set(new?.leases ?? [])
            leasesAcquired += newLeases.subtracting(oldLeases).sorted().map { Lease(state: id, holder: $0) }
            leasesReleased += oldLeases.subtracting(newLeases).sorted().map { Lease(state: id, holder: $0) }
        }
        let oldEdges = Self.edges(of: before), newEdges = Self.edges(of: after)
        edgesAdded = newEdges.subtracting(oldEdges).sorted(by: Self.edgeOrder)
        edgesRemoved = oldEdges.subtracting(newEdges).sorted(by: Self.edgeOrder)
        let oldRegistrations = Set(before.registrations.keys), newRegistrations = Set(after.registrations.keys)
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
            for producer in registration.dependencies { edges.insert(Edge(consumer: registration.id, producer: producer)) }
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
