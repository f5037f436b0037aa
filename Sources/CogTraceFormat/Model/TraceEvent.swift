/// One thing that happened in a turn (or between turns), as the trace records it. States and
/// registrations are named by their dense ids; their labels are in the trace's state table.
public enum TraceEvent: Equatable {
    case stateCreated(state: Int, value: TraceValue?)
    case seeded(state: Int, value: TraceValue)
    case write(state: Int, old: TraceValue, new: TraceValue)
    case writeDiscarded(state: Int, value: TraceValue)
    /// `changed` is false when equality gated the result; `trigger` is the dependency whose
    /// change made it run (nil for a first run).
    case recompute(state: Int, old: TraceValue?, new: TraceValue?, changed: Bool, trigger: Int?)
    case edgeAdded(consumer: Int, producer: Int)
    case edgeRemoved(consumer: Int, producer: Int)
    /// The consumer's whole dependency list after a run changed it, in read order.
    case dependencies(consumer: Int, producers: [Int])
    case unregistered(registration: Int)
    case boundaryAttached(state: Int)
    case notice(state: Int)
    case offer(state: Int, subscriber: Int, value: TraceValue)
    case reactionRun(registration: Int)
    case watchRun(registration: Int, old: TraceValue?, new: TraceValue)
    case leaseAcquired(state: Int, holder: String)
    case leaseReleased(state: Int, holder: String)
    case leaseRenewed(state: Int, holder: String)
    case graceScheduled(state: Int, milliseconds: Int)
    case graceExpired(state: Int)
    case stateReleased(state: Int, reason: String)
    case generationStarted(state: Int, generation: Int, policy: AsyncPolicyName)
    case generationCancelled(state: Int, generation: Int)
    case generationAccepted(state: Int, generation: Int, outcome: String)
    case generationRejected(state: Int, generation: Int)
    case asyncStatus(state: Int, kind: AsyncStatusKind, isLoading: Bool, hasSucceeded: Bool, error: String?)
    case refreshResolved(state: Int, generation: Int?, outcome: String)
    case registered(registration: Int, name: String, kind: RegistrationKind)
    case scopeOpened(registration: Int, name: String, identity: String?)
    case scopeRetired(registration: Int)
    case taskStarted(registration: Int, name: String)
    case taskCancelled(registration: Int)
    case taskFinished(registration: Int)
    case turnDropped(name: String, reason: String)
    case diagnostic(kind: String, message: String, path: [String])

    /// The record name of the event's kind, as `"e"` in the file.
    public var kind: String {
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
    public var state: Int? {
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
    public var registration: Int? {
        switch self {
        case .registered(let registration, _, _), .unregistered(let registration), .reactionRun(let registration),
            .watchRun(let registration, _, _), .scopeOpened(let registration, _, _), .scopeRetired(let registration),
            .taskStarted(let registration, _), .taskCancelled(let registration), .taskFinished(let registration):
            registration
        default:
            nil
        }
    }
}
