/// One thing that happened in a turn (or between turns), as the trace records it. States and
/// registrations are named by their dense ids; their labels are in the trace's state table.
public enum TraceEvent: Equatable {
    case stateCreated(state: NodeID, value: TraceValue?)
    case seeded(state: NodeID, value: TraceValue)
    case write(state: NodeID, old: TraceValue, new: TraceValue)
    case writeDiscarded(state: NodeID, value: TraceValue)
    /// `changed` is false when equality gated the result; `trigger` is the dependency whose
    /// change made it run (nil for a first run).
    case recompute(state: NodeID, old: TraceValue?, new: TraceValue?, changed: Bool, trigger: NodeID?)
    case edgeAdded(consumer: NodeID, producer: NodeID)
    case edgeRemoved(consumer: NodeID, producer: NodeID)
    /// The consumer's whole dependency list after a run changed it, in read order.
    case dependencies(consumer: NodeID, producers: [NodeID])
    case unregistered(registration: NodeID)
    case boundaryAttached(state: NodeID)
    case notice(state: NodeID)
    case offer(state: NodeID, subscriber: NodeID, value: TraceValue)
    case reactionRun(registration: NodeID)
    case watchRun(registration: NodeID, old: TraceValue?, new: TraceValue)
    case leaseAcquired(state: NodeID, holder: String)
    case leaseReleased(state: NodeID, holder: String)
    case leaseRenewed(state: NodeID, holder: String)
    case graceScheduled(state: NodeID, milliseconds: Int)
    case graceExpired(state: NodeID)
    case stateReleased(state: NodeID, reason: String)
    case generationStarted(state: NodeID, generation: Int, policy: AsyncPolicyName)
    case generationCancelled(state: NodeID, generation: Int)
    case generationAccepted(state: NodeID, generation: Int, outcome: String)
    case generationRejected(state: NodeID, generation: Int)
    case asyncStatus(state: NodeID, kind: AsyncStatusKind, isLoading: Bool, hasSucceeded: Bool, error: String?)
    case refreshResolved(state: NodeID, generation: Int?, outcome: String)
    case registered(registration: NodeID, name: String, kind: RegistrationKind)
    case scopeOpened(registration: NodeID, name: String, identity: String?)
    case scopeRetired(registration: NodeID)
    case taskStarted(registration: NodeID, name: String)
    case taskCancelled(registration: NodeID)
    case taskFinished(registration: NodeID)
    case turnDropped(name: String, reason: String)
    case diagnostic(kind: String, message: String, path: [String])

    /// The record name of the event's kind, as `"e"` in the file.
    public var kind: String { kindName.description }

    /// The record name of the event's kind as the program holds it, which writing needs no
    /// escaping or copying for.
    package var kindName: StaticString {
        switch self {
        case .stateCreated: "created"
        case .seeded: "seeded"
        case .write: "write"
        case .writeDiscarded: "writeDiscarded"
        case .recompute: "recompute"
        case .edgeAdded: "edgeAdded"
        case .edgeRemoved: "edgeRemoved"
        case .dependencies: "deps"
        case .unregistered: "unregistered"
        case .boundaryAttached: "pinned"
        case .notice: "notice"
        case .offer: "offer"
        case .reactionRun: "reaction"
        case .watchRun: "watch"
        case .leaseAcquired: "leaseAcquired"
        case .leaseReleased: "leaseReleased"
        case .leaseRenewed: "leaseRenewed"
        case .graceScheduled: "graceScheduled"
        case .graceExpired: "graceExpired"
        case .stateReleased: "released"
        case .generationStarted: "generationStarted"
        case .generationCancelled: "generationCancelled"
        case .generationAccepted: "generationAccepted"
        case .generationRejected: "generationRejected"
        case .asyncStatus: "asyncStatus"
        case .refreshResolved: "refreshResolved"
        case .registered: "registered"
        case .scopeOpened: "scopeOpened"
        case .scopeRetired: "scopeRetired"
        case .taskStarted: "taskStarted"
        case .taskCancelled: "taskCancelled"
        case .taskFinished: "taskFinished"
        case .turnDropped: "turnDropped"
        case .diagnostic: "diagnostic"
        }
    }

    /// The state the event is about, if one.
    public var state: NodeID? {
        switch self {
        case .stateCreated(let state, _), .seeded(let state, _), .write(let state, _, _),
            .writeDiscarded(let state, _), .recompute(let state, _, _, _, _), .boundaryAttached(let state),
            .notice(let state), .offer(let state, _, _), .leaseAcquired(let state, _), .leaseReleased(let state, _),
            .leaseRenewed(let state, _), .graceScheduled(let state, _), .graceExpired(let state),
            .stateReleased(let state, _), .generationStarted(let state, _, _), .generationCancelled(let state, _),
            .generationAccepted(let state, _, _), .generationRejected(let state, _),
            .asyncStatus(let state, _, _, _, _), .refreshResolved(let state, _, _):
            state
        case .edgeAdded(let consumer, _), .edgeRemoved(let consumer, _), .dependencies(let consumer, _):
            consumer
        default:
            nil
        }
    }

    /// The registration (reaction, watch, scope, task, …) the event is about, if one. Registrations
    /// and states share one id space, so an id never names both.
    public var registration: NodeID? {
        switch self {
        case .registered(let registration, _, _), .unregistered(let registration), .reactionRun(let registration),
            .watchRun(let registration, _, _), .scopeOpened(let registration, _, _), .scopeRetired(let registration),
            .taskStarted(let registration, _), .taskCancelled(let registration), .taskFinished(let registration):
            registration
        default:
            nil
        }
    }

    /// The producer of an edge event (its `p`), if it is one.
    public var edgeProducer: NodeID? {
        switch self {
        case .edgeAdded(_, let producer), .edgeRemoved(_, let producer): producer
        default: nil
        }
    }

    /// The ids an index files this event under: the state or registration it is about, and an
    /// edge's producer. `EventScanner` reads the same ids from a record's `s`, `r` and `p`.
    package var indexedSubjects: [NodeID] {
        [state ?? registration, edgeProducer].compactMap { $0 }
    }
}
