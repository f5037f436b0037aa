import Cog
import Foundation

/// Records everything a runtime does into bounded turn history, and writes it as a `.cogtrace`.
///
/// Attach one to a runtime; by default it keeps the last `capacity` turns in memory (a ring) and
/// writes a file on demand. Call `startStreaming(to:)` instead to append every completed turn to
/// a file as it ends, so a crash loses at most the turn in flight.
///
/// ```swift
/// let recorder = CogRecorder(configuration: RecorderConfiguration(title: "checkout"))
/// recorder.attach(to: cogs)
/// // … the app runs …
/// try recorder.write(to: URL(fileURLWithPath: "checkout.cogtrace"))
/// ```
public final class CogRecorder: CogProbe {
    let configuration: RecorderConfiguration
    let timeline: RecordingTimeline

    /// Every state seen, by id, in order of first appearance.
    var stateInfos: [Int: TraceStateInfo] = [:]
    var stateOrder: [Int] = []
    private var redactedStates: Set<Int> = []

    /// The retained turns, oldest first (a ring of `capacity`).
    var ring: [TraceTurn] = []
    var ringHead = 0
    /// The graph just before the oldest retained turn.
    var baseSnapshot = GraphSnapshot()
    /// The turn being recorded, and events since the last turn ended.
    private var current: TraceTurn?
    private var currentStart: Duration = .zero
    var idleEvents: [TraceEvent] = []

    /// Turns recorded since attaching, including evicted ones.
    public private(set) var recordedTurnCount = 0
    /// Turns the ring has evicted.
    public private(set) var evictedTurnCount = 0
    /// Events dropped because a turn exceeded `maxEventsPerTurn`.
    public private(set) var droppedEventCount = 0

    /// The streaming file, when streaming.
    var stream: TraceStream?

    /// A recorder; attach it to a runtime to start recording.
    public init(configuration: RecorderConfiguration = RecorderConfiguration()) {
        self.configuration = configuration
        self.timeline = RecordingTimeline(configuration.clock)
    }

    /// Makes this recorder the runtime's probe.
    public func attach(to cogs: Cogs) {
        cogs.probe = self
    }

    /// How many turns the ring holds now.
    public var retainedTurnCount: Int { ring.count }

    /// The retained turns, oldest first.
    public var retainedTurns: [TraceTurn] {
        Array(ring[ringHead...] + ring[..<ringHead])
    }

    // MARK: CogProbe

    public func record(_ event: CogProbeEvent) {
        switch event {
        case .turnBegan(let turn):
            beginTurn(turn)
        case .turnEnded:
            endTurn()
        default:
            guard let traced = trace(event) else { return }
            if current != nil {
                if current!.events.count >= configuration.maxEventsPerTurn {
                    droppedEventCount += 1
                } else {
                    current!.events.append(traced)
                }
            } else {
                idleEvents.append(traced)
            }
        }
    }

    private func beginTurn(_ turn: CogTurnInfo) {
        flushIdleEvents(beforeTurn: turn.id)
        currentStart = timeline.now()
        current = TraceTurn(
            sequence: turn.id, name: turn.name, origin: turn.origin.rawValue, cause: turn.cause,
            start: timeline.microseconds(currentStart), duration: 0, events: [])
    }

    private func endTurn() {
        guard var turn = current else { return }
        current = nil
        turn = TraceTurn(
            sequence: turn.sequence, name: turn.name, origin: turn.origin, cause: turn.cause, start: turn.start,
            duration: timeline.microseconds(timeline.now() - currentStart), events: turn.events)
        recordedTurnCount += 1
        stream?.append(turn, recorder: self)
        retain(turn)
    }

    /// Hands events that happened between turns to the last retained turn (or, before any turn,
    /// to the base snapshot), and to the stream.
    private func flushIdleEvents(beforeTurn sequence: Int) {
        stream?.willBeginTurn(sequence, idle: idleEvents, recorder: self)
        guard !idleEvents.isEmpty else { return }
        if ring.isEmpty {
            for event in idleEvents { baseSnapshot.apply(event) }
        } else {
            let last = (ringHead + ring.count - 1) % ring.count
            ring[last].after.append(contentsOf: idleEvents)
        }
        idleEvents.removeAll()
    }

    private func retain(_ turn: TraceTurn) {
        if ring.count < configuration.capacity {
            ring.append(turn)
            return
        }
        let evicted = ring[ringHead]
        for event in evicted.events { baseSnapshot.apply(event) }
        for event in evicted.after { baseSnapshot.apply(event) }
        ring[ringHead] = turn
        ringHead = (ringHead + 1) % ring.count
        evictedTurnCount += 1
    }

    // MARK: Converting probe events

    private func value(_ value: Any, of state: CogStateID) -> TraceValue {
        redactedStates.contains(state.rawValue) ? .redacted : TraceValue(pending: value)
    }

    private func trace(_ event: CogProbeEvent) -> TraceEvent? {
        switch event {
        case .turnBegan, .turnEnded:
            return nil
        case .stateCreated(let info, let initial):
            noteState(info)
            return .stateCreated(state: info.id.rawValue, value: initial.map { value($0, of: info.id) })
        case .registered(let info):
            return .registered(registration: info.id.rawValue, name: info.name, kind: info.kind.rawValue)
        case .seeded(let state, let new):
            return .seeded(state: state.rawValue, value: value(new, of: state))
        case .write(let state, let old, let new):
            return .write(state: state.rawValue, old: value(old, of: state), new: value(new, of: state))
        case .writeDiscarded(let state, let discarded):
            return .writeDiscarded(state: state.rawValue, value: value(discarded, of: state))
        case .recompute(let state, let old, let new, let changed, let trigger):
            return .recompute(state: state.rawValue, old: old.map { value($0, of: state) },
                              new: new.map { value($0, of: state) }, changed: changed, trigger: trigger?.rawValue)
        case .edgeAdded(let consumer, let producer):
            return .edgeAdded(consumer: consumer.rawValue, producer: producer.rawValue)
        case .edgeRemoved(let consumer, let producer):
            return .edgeRemoved(consumer: consumer.rawValue, producer: producer.rawValue)
        case .dependenciesChanged(let consumer, let producers):
            return .dependencies(consumer: consumer.rawValue, producers: producers.map(\.rawValue))
        case .unregistered(let registration):
            return .unregistered(registration: registration.rawValue)
        case .boundaryAttached(let state):
            return .boundaryAttached(state: state.rawValue)
        case .notice(let state):
            return .notice(state: state.rawValue)
        case .reactionRun(let registration):
            return .reactionRun(registration: registration.rawValue)
        case .generationStarted(let state, let generation, let policy):
            return .generationStarted(state: state.rawValue, generation: generation, policy: policy.rawValue)
        case .generationCancelled(let state, let generation):
            return .generationCancelled(state: state.rawValue, generation: generation)
        case .generationAccepted(let state, let generation, let outcome):
            return .generationAccepted(state: state.rawValue, generation: generation, outcome: outcome)
        case .generationRejected(let state, let generation):
            return .generationRejected(state: state.rawValue, generation: generation)
        case .asyncStatus(let state, let kind, let isLoading, let hasSucceeded, let error):
            let shownError = redactedStates.contains(state.rawValue) ? error.map { _ in "‹redacted›" } : error
            return .asyncStatus(state: state.rawValue, kind: kind, isLoading: isLoading, hasSucceeded: hasSucceeded,
                                error: shownError)
        case .refreshResolved(let state, let generation, let outcome):
            return .refreshResolved(state: state.rawValue, generation: generation, outcome: outcome)
        case .turnDropped(let name, let reason):
            return .turnDropped(name: name, reason: reason)
        case .scopeOpened(let registration, let name, let identity):
            return .scopeOpened(registration: registration.rawValue, name: name, identity: identity)
        case .scopeRetired(let registration):
            return .scopeRetired(registration: registration.rawValue)
        case .taskStarted(let registration, let name):
            return .taskStarted(registration: registration.rawValue, name: name)
        case .taskCancelled(let registration):
            return .taskCancelled(registration: registration.rawValue)
        case .taskFinished(let registration):
            return .taskFinished(registration: registration.rawValue)
        case .watchRun(let registration, let old, let new):
            return .watchRun(registration: registration.rawValue, old: old.map { TraceValue(pending: $0) },
                             new: TraceValue(pending: new))
        case .leaseAcquired(let state, let holder):
            return .leaseAcquired(state: state.rawValue, holder: holder)
        case .leaseReleased(let state, let holder):
            return .leaseReleased(state: state.rawValue, holder: holder)
        case .leaseRenewed(let state, let holder):
            return .leaseRenewed(state: state.rawValue, holder: holder)
        case .graceScheduled(let state, let grace):
            let (seconds, attoseconds) = grace.components
            return .graceScheduled(state: state.rawValue,
                                   milliseconds: Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000))
        case .graceExpired(let state):
            return .graceExpired(state: state.rawValue)
        case .stateReleased(let state, let reason):
            return .stateReleased(state: state.rawValue, reason: reason.rawValue)
        case .offer(let state, let subscriber, let offered):
            return .offer(state: state.rawValue, subscriber: subscriber.rawValue, value: value(offered, of: state))
        case .diagnostic(let diagnostic):
            return .diagnostic(kind: diagnostic.kind.rawValue, message: diagnostic.message, path: diagnostic.path)
        }
    }

    private func noteState(_ info: CogStateInfo) {
        let id = info.id.rawValue
        if stateInfos[id] == nil { stateOrder.append(id) }
        stateInfos[id] = TraceStateInfo(
            id: id, label: info.label, declaration: info.declaration, key: info.key, shape: info.shape.rawValue,
            valueType: info.valueType, lifetime: info.lifetime, policy: info.policy?.rawValue)
        if configuration.redactedLabels.contains(where: { labelMatches(info.label, pattern: $0) }) {
            redactedStates.insert(id)
        } else {
            redactedStates.remove(id)
        }
    }
}
