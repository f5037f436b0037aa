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
    /// Indexed by state id (ids are dense); converted to `TraceStateInfo` only when written.
    @exclusivity(unchecked) var stateInfoByID: ContiguousArray<CogStateInfo?> = []
    var stateOrder: [Int] = []
    private var redactedStates: Set<Int> = []

    /// The retained turns, oldest first (a ring of `capacity`), holding events as the probe
    /// gave them: converting and rendering wait until a turn is written or evicted.
    @exclusivity(unchecked) var ring: [RecordedTurn] = []
    @exclusivity(unchecked) var ringHead = 0
    /// The graph just before the oldest retained turn, built lazily: events that precede every
    /// retained turn wait in `basePending` until a write or an eviction needs the snapshot.
    private var foldedBase = GraphSnapshot()
    private var basePending = EventBuffer()

    /// The graph just before the oldest retained turn.
    var baseSnapshot: GraphSnapshot {
        foldPending()
        return foldedBase
    }

    /// Applies the events waiting before every retained turn to the base, in place.
    private func foldPending() {
        guard !basePending.isEmpty else { return }
        TraceConverter.fold(basePending, into: &foldedBase, recorder: self)
        basePending = EventBuffer()
    }
    /// The turn being recorded, its events, and events since the last turn ended.
    @exclusivity(unchecked) private var current: RecordedTurn?
    @exclusivity(unchecked) private var isInTurn = false
    @exclusivity(unchecked) private var currentEvents = EventBuffer()
    @exclusivity(unchecked) var idleEvents = EventBuffer()
    /// How many events the last turn held: the next turn reserves that much room at once.
    private var lastTurnEventCount = 8

    /// Turns recorded since attaching, including evicted ones.
    public private(set) var recordedTurnCount = 0
    /// Turns the ring has evicted.
    public private(set) var evictedTurnCount = 0
    /// Events dropped because a turn exceeded `maxEventsPerTurn`.
    public private(set) var droppedEventCount = 0

    /// The streaming file, when streaming.
    var stream: TraceStream?
    /// What stopped streaming, reported once each (a full disk, a removed file).
    public internal(set) var faults: [RecorderFault] = []

    /// A recorder; attach it to a runtime to start recording.
    public init(configuration: RecorderConfiguration = RecorderConfiguration()) {
        self.configuration = configuration
        self.timeline = RecordingTimeline(configuration.clock)
    }

    /// Starts recording `cogs`, beside any probe already attached (a test's failure recorder,
    /// say); the recorder first hears of the states the runtime already holds.
    public func attach(to cogs: Cogs) {
        cogs.addProbe(self)
    }

    /// How many turns the ring holds now.
    public var retainedTurnCount: Int { ring.count }

    /// The retained turns, oldest first, as the trace records them.
    public var retainedTurns: [TraceTurn] {
        var converter = TraceConverter(from: baseSnapshot, recorder: self)
        return orderedRing.map { traced($0, with: &converter) }
    }

    /// The retained turns, oldest first, as recorded.
    var orderedRing: [RecordedTurn] { Array(ring[ringHead...] + ring[..<ringHead]) }

    // MARK: CogProbe

    public func record(_ event: consuming CogProbeEvent) {
        let event = event
        switch event {
        case .turnBegan(let turn):
            beginTurn(turn)
            return
        case .turnEnded:
            endTurn()
            return
        case .stateCreated(let info, _):
            noteState(info)
        default:
            break
        }
        switch target() {
        case .turn: currentEvents.append(event)
        case .idle: idleEvents.append(event)
        case .full: break
        }
    }

    public func recordRecompute<Value>(state: CogStateID, old: borrowing Value, new: borrowing Value, changed: Bool,
                                       trigger: CogStateID?) {
        switch target() {
        case .turn: currentEvents.appendRecompute(state: state, old: old, new: new, changed: changed, trigger: trigger)
        case .idle: idleEvents.appendRecompute(state: state, old: old, new: new, changed: changed, trigger: trigger)
        case .full: break
        }
    }

    public func recordFirstRun<Value>(state: CogStateID, value: borrowing Value, trigger: CogStateID?) {
        switch target() {
        case .turn: currentEvents.appendFirstRun(state: state, value: value, trigger: trigger)
        case .idle: idleEvents.appendFirstRun(state: state, value: value, trigger: trigger)
        case .full: break
        }
    }

    public func recordWrite<Value>(state: CogStateID, old: borrowing Value, new: borrowing Value) {
        switch target() {
        case .turn: currentEvents.appendWrite(state: state, old: old, new: new)
        case .idle: idleEvents.appendWrite(state: state, old: old, new: new)
        case .full: break
        }
    }

    public func recordDependenciesChanged(consumer: CogStateID, producers: borrowing CogProducerList) {
        switch target() {
        case .turn: currentEvents.appendDependencies(consumer: consumer, producers: producers)
        case .idle: idleEvents.appendDependencies(consumer: consumer, producers: producers)
        case .full: break
        }
    }

    /// Where the next event goes.
    private enum Target {
        /// The turn in progress.
        case turn
        /// The events between turns.
        case idle
        /// Nowhere: the turn already holds `maxEventsPerTurn` events, so this one is dropped.
        case full
    }

    /// Where the next event goes; counts it as dropped when the turn is full. (Each entry point
    /// switches on this rather than passing a closure: a closure formed here would check the
    /// MainActor executor every time it ran.)
    @inline(__always)
    private func target() -> Target {
        guard isInTurn else { return .idle }
        guard currentEvents.count < configuration.maxEventsPerTurn else {
            droppedEventCount += 1
            return .full
        }
        return .turn
    }

    private func beginTurn(_ turn: CogTurnInfo) {
        flushIdleEvents(beforeTurn: turn.id)
        current = RecordedTurn(info: turn, start: timeline.now())
        currentEvents = EventBuffer(reservingCapacity: lastTurnEventCount)
        isInTurn = true
    }

    private func endTurn() {
        guard var turn = current else { return }
        current = nil
        isInTurn = false
        swap(&turn.events, &currentEvents)
        turn.duration = timeline.now() - turn.start
        lastTurnEventCount = max(4, turn.events.count)
        recordedTurnCount += 1
        stream?.append(turn, recorder: self)
        retain(turn)
    }

    /// Hands events that happened between turns to the last retained turn (or, before any turn,
    /// to the base snapshot), and to the stream.
    private func flushIdleEvents(beforeTurn sequence: Int) {
        guard !idleEvents.isEmpty || stream != nil else { return }
        stream?.willBeginTurn(sequence, idle: idleEvents, recorder: self)
        guard !idleEvents.isEmpty else { return }
        if ring.isEmpty {
            basePending.take(&idleEvents)
        } else {
            let last = (ringHead + ring.count - 1) % ring.count
            ring[last].after.take(&idleEvents)
        }
    }

    private func retain(_ turn: RecordedTurn) {
        if ring.count < configuration.capacity {
            ring.append(turn)
            return
        }
        foldPending()
        TraceConverter.fold(ring[ringHead].events, into: &foldedBase, recorder: self)
        TraceConverter.fold(ring[ringHead].after, into: &foldedBase, recorder: self)
        ring[ringHead] = turn
        ringHead = (ringHead + 1) % ring.count
        evictedTurnCount += 1
    }

    /// A recorded turn as the trace holds it, converted in order by `converter`.
    func traced(_ turn: RecordedTurn, with converter: inout TraceConverter) -> TraceTurn {
        let events = converter.convert(turn.events)
        let after = converter.convert(turn.after)
        return TraceTurn(
            sequence: turn.info.id, name: turn.info.name, origin: turn.info.origin.rawValue, cause: turn.info.cause,
            start: timeline.microseconds(turn.start), duration: timeline.microseconds(turn.duration),
            events: events, after: after)
    }

    // MARK: Converting probe events

    private func value(_ value: Any, of state: CogStateID) -> TraceValue {
        if !redactedStates.isEmpty, redactedStates.contains(state.rawValue) { return .redacted }
        return TraceValue(pending: value)
    }

    func trace(_ event: CogProbeEvent) -> TraceEvent? {
        switch event {
        case .turnBegan, .turnEnded:
            return nil
        case .stateCreated(let info, let initial):
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
        if id >= stateInfoByID.count {
            stateInfoByID.append(contentsOf: repeatElement(nil, count: max(id + 1 - stateInfoByID.count, 256)))
        }
        if stateInfoByID[id] == nil { stateOrder.append(id) }
        stateInfoByID[id] = info
        guard !configuration.redactedLabels.isEmpty else { return }
        if configuration.redactedLabels.contains(where: { labelMatches(info.label, pattern: $0) }) {
            redactedStates.insert(id)
        } else {
            redactedStates.remove(id)
        }
    }

    /// The state table entry the trace writes for state `id`.
    func stateRecord(_ id: Int) -> TraceStateInfo {
        let info = stateInfoByID[id]!
        return TraceStateInfo(
            id: id, label: info.label, declaration: info.declaration, key: info.key, shape: info.shape.rawValue,
            valueType: info.valueType, lifetime: info.lifetime, policy: info.policy?.rawValue)
    }
}

/// One turn as the recorder holds it: the probe's own events, converted only when needed.
struct RecordedTurn {
    let info: CogTurnInfo
    let start: Duration
    var duration: Duration = .zero
    var events = EventBuffer()
    /// Events after the turn and before the next one.
    var after = EventBuffer()
}
