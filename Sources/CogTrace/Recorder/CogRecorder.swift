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

    /// Every kept event, packed, in arrival order; turns are ranges of it.
    @exclusivity(unchecked) var log = EventLog()
    /// The retained turns, oldest first from `ringHead` (a ring of `capacity`): converting and
    /// rendering their events wait until a turn is written or evicted.
    @exclusivity(unchecked) var ring: [RecordedTurn] = []
    @exclusivity(unchecked) var ringHead = 0
    /// The graph just before the oldest retained turn, built lazily: the events from
    /// `foldedUpTo` to the oldest retained turn wait in the log until a write or an eviction
    /// needs the snapshot.
    private var foldedBase = GraphSnapshot()
    private var foldedUpTo = 0

    /// The graph just before the oldest retained turn.
    var baseSnapshot: GraphSnapshot {
        foldPending()
        return foldedBase
    }

    /// Applies the events waiting before every retained turn to the base, in place, and lets
    /// the log drop them.
    private func foldPending() {
        let baseEnd = ring.isEmpty ? idleStart : ring[ringHead].events.lowerBound
        fold(upTo: baseEnd)
    }

    private func fold(upTo end: Int) {
        guard foldedUpTo < end else { return }
        TraceConverter.fold(log.events(foldedUpTo..<end), into: &foldedBase, recorder: self)
        foldedUpTo = end
        log.discard(before: end)
    }

    /// The turn being recorded, while one is.
    @exclusivity(unchecked) private var current: (info: CogTurnInfo, start: Duration)?
    @exclusivity(unchecked) private var isInTurn = false
    /// Where the current turn's events begin in the log.
    @exclusivity(unchecked) private var currentStart = 0
    /// Where the events since the last turn ended begin in the log (from the start, before the
    /// first turn); none while a turn is in progress.
    @exclusivity(unchecked) private var idleStart = 0

    /// The events since the last turn ended.
    var idleEvents: EventRange { log.events(idleStart..<(isInTurn ? idleStart : log.endIndex)) }

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
        if accepts() { log.append(event) }
    }

    public func signal(_ signal: CogProbeSignal) {
        if accepts() { log.append(signal) }
    }

    public func recordRecompute<Value>(state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>,
                                       changed: Bool, trigger: CogStateID?) {
        if accepts() { log.appendRecompute(state: state, old: old, new: new, changed: changed, trigger: trigger) }
    }

    public func recordFirstRun<Value>(state: CogStateID, value: UnsafePointer<Value>, trigger: CogStateID?) {
        if accepts() { log.appendFirstRun(state: state, value: value, trigger: trigger) }
    }

    public func recordWrite<Value>(state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>) {
        if accepts() { log.appendWrite(state: state, old: old, new: new) }
    }

    public func recordDependenciesChanged(consumer: CogStateID, producers: borrowing CogProducerList) {
        if accepts() { log.appendDependencies(consumer: consumer, producers: producers) }
    }

    /// Whether the log takes the next event: always between turns, and in a turn until it holds
    /// `maxEventsPerTurn` events; past that the event is counted as dropped. (Each entry point
    /// tests this rather than passing a closure: a closure formed here would check the MainActor
    /// executor every time it ran.)
    @inline(__always)
    private func accepts() -> Bool {
        guard isInTurn, log.endIndex - currentStart >= configuration.maxEventsPerTurn else { return true }
        droppedEventCount += 1
        return false
    }

    private func beginTurn(_ turn: CogTurnInfo) {
        if stream != nil { stream?.willBeginTurn(turn.id, idle: idleEvents, recorder: self) }
        // The events since the last turn belong to it (or, before the first, to the base).
        if !ring.isEmpty { ring[(ringHead + ring.count - 1) % ring.count].afterEnd = log.endIndex }
        current = (turn, timeline.now())
        currentStart = log.endIndex
        idleStart = log.endIndex
        isInTurn = true
    }

    private func endTurn() {
        guard let (info, start) = current else { return }
        current = nil
        isInTurn = false
        let end = log.endIndex
        let turn = RecordedTurn(info: info, start: start, duration: timeline.now() - start,
                                events: currentStart..<end, afterEnd: end)
        idleStart = end
        recordedTurnCount += 1
        stream?.append(turn, recorder: self)
        retain(turn)
    }

    private func retain(_ turn: RecordedTurn) {
        if ring.count < configuration.capacity {
            ring.append(turn)
            return
        }
        // The oldest turn's events, and those after it, join the base.
        fold(upTo: ring[ringHead].afterEnd)
        ring[ringHead] = turn
        ringHead = (ringHead + 1) % ring.count
        evictedTurnCount += 1
    }

    /// A recorded turn as the trace holds it, converted in order by `converter`.
    func traced(_ turn: RecordedTurn, with converter: inout TraceConverter) -> TraceTurn {
        let events = converter.convert(log.events(turn.events))
        let after = converter.convert(log.events(turn.after))
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

/// One turn as the recorder holds it: where its events lie in the log, converted only when needed.
struct RecordedTurn {
    let info: CogTurnInfo
    let start: Duration
    let duration: Duration
    /// The turn's own events.
    let events: Range<Int>
    /// Where the events after the turn, and before the next one, end; they begin where the
    /// turn's own end.
    var afterEnd: Int

    /// The events after the turn and before the next one.
    var after: Range<Int> { events.upperBound..<afterEnd }
}
