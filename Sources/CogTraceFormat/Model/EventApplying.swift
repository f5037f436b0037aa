/// A graph that trace events move forward, step by step: a `GraphSnapshot`, or the packed copy
/// a trace writer keeps. `applyEvent` says once which steps each event takes, so every kind of
/// graph moves the same way and only how a step is stored differs.
package protocol EventApplying {
    /// A state came to be with `value`, replacing any state of that id.
    mutating func recordCreation(of id: NodeID, value: TraceValue?)
    /// A state was seeded with `value`: a version more when it differs from the one held.
    mutating func recordSeed(of id: NodeID, value: TraceValue)
    /// A source took `value`: one version more.
    mutating func recordWrite(of id: NodeID, value: TraceValue)
    /// A state ran: its value, a version more when it `changed`, the versions it saw.
    mutating func recordRun(of id: NodeID, value: TraceValue?, changed: Bool)
    /// A state's or registration's whole new dependency list, noting the versions the state saw
    /// unless its run, recorded next, will.
    mutating func recordDependencies(of consumer: NodeID, _ producers: [NodeID], notingVersions: Bool)
    /// A UI read pinned a state.
    mutating func recordPin(of id: NodeID)
    /// A state's grace window began.
    mutating func recordGraceScheduled(of id: NodeID)
    /// A state's grace window ended without a reader.
    mutating func recordGraceExpired(of id: NodeID)
    /// A state was released.
    mutating func recordRelease(of id: NodeID)
    /// Changes who holds the live state `id`.
    mutating func updateLeases(of id: NodeID, _ body: (inout [String]) -> Void)
    /// Changes the async status of the live state `id`.
    mutating func updateAsync(of id: NodeID, _ body: (inout GraphSnapshot.AsyncStatus?) -> Void)
    /// Live registrations by id.
    var registrations: [NodeID: GraphSnapshot.Registration] { get set }
}

extension EventApplying {
    /// Moves the graph forward by one event.
    package mutating func applyEvent(_ event: TraceEvent) {
        switch event {
        case .stateCreated(let id, let value): recordCreation(of: id, value: value)
        case .seeded(let id, let value): recordSeed(of: id, value: value)
        case .write(let id, _, let new): recordWrite(of: id, value: new)
        case .recompute(let id, _, let new, let changed, _): recordRun(of: id, value: new, changed: changed)
        case .dependencies(let consumer, let producers):
            recordDependencies(of: consumer, producers, notingVersions: true)
        case .boundaryAttached(let id): recordPin(of: id)
        case .leaseAcquired(let id, let holder): updateLeases(of: id) { $0.append(holder) }
        case .leaseReleased(let id, let holder):
            updateLeases(of: id) { leases in
                if let index = leases.firstIndex(of: holder) { leases.remove(at: index) }
            }
        case .graceScheduled(let id, _): recordGraceScheduled(of: id)
        case .graceExpired(let id): recordGraceExpired(of: id)
        case .stateReleased(let id, _): recordRelease(of: id)
        case .generationStarted(let id, let generation, _):
            updateAsync(of: id) { async in
                var status = async ?? GraphSnapshot.AsyncStatus()
                status.generation = generation
                status.inFlight.append(generation)
                async = status
            }
        case .generationCancelled(let id, let generation), .generationAccepted(let id, let generation, _):
            updateAsync(of: id) { $0?.inFlight.removeAll { $0 == generation } }
        case .asyncStatus(let id, let kind, let isLoading, let hasSucceeded, let error):
            updateAsync(of: id) { async in
                var status = async ?? GraphSnapshot.AsyncStatus()
                status.kind = kind
                status.isLoading = isLoading
                status.hasSucceeded = hasSucceeded
                status.error = error
                async = status
            }
        case .registered(let id, let name, let kind):
            registrations[id] = GraphSnapshot.Registration(id: id, name: name, kind: kind)
        case .scopeOpened(let id, let name, _):
            registrations[id] = GraphSnapshot.Registration(id: id, name: name, kind: .scopeOpening)
        case .taskStarted(let id, let name):
            registrations[id] = GraphSnapshot.Registration(id: id, name: name, kind: .task)
        case .unregistered(let id), .scopeRetired(let id), .taskCancelled(let id), .taskFinished(let id):
            registrations[id] = nil
        case .writeDiscarded, .edgeAdded, .edgeRemoved, .notice, .offer, .reactionRun, .watchRun, .leaseRenewed,
            .generationRejected, .refreshResolved, .turnDropped, .diagnostic:
            break
        }
    }
}
