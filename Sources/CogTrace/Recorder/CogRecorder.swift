public import Cog
import Foundation
import Synchronization

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
///
/// The properties every event touches opt out of dynamic exclusivity checks
/// (`@exclusivity(unchecked)`): the recorder is confined to the MainActor, and no code path holds
/// a mutating access to one of them while another access to it begins.
@MainActor
public final class CogRecorder: CogProbe {
    let configuration: RecorderConfiguration
    let timeline: RecordingTimeline

    /// What the runtime said of every state seen, in order of first appearance; converted to
    /// `TraceStateInfo` only when written.
    @exclusivity(unchecked) var stateInfos: ContiguousArray<CogStateInfo> = []
    /// Where each state's entry is in `stateInfos`, indexed by state id (ids are dense); -1 for
    /// an id not seen. Integers rather than optional descriptions: extending a table of
    /// optionals initialized each new slot through its value witness, about 150 instructions a
    /// slot, and every lookup copied an optional out.
    @exclusivity(unchecked) var statePositionByID: ContiguousArray<Int> = []
    @exclusivity(unchecked) var redactedStates: Set<Int> = []

    /// Every kept event, packed, in arrival order; turns are ranges of it.
    @exclusivity(unchecked) var log = EventLog()
    /// The retained turns, oldest first from `ringHead` (a ring of `capacity`): converting and
    /// rendering their events wait until a turn is written or evicted.
    @exclusivity(unchecked) var ring: [RecordedTurn] = []
    @exclusivity(unchecked) var ringHead = 0
    /// Where the newest retained turn sits in `ring`.
    @exclusivity(unchecked) private var newestIndex = 0
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
        TraceConverter.fold(portable(foldedUpTo..<end, settling: false), into: &foldedBase)
        foldedUpTo = end
        log.discard(before: end)
    }

    /// The turn being recorded, while one is.
    @exclusivity(unchecked) private var current: (info: CogTurnInfo, start: Int)?
    @exclusivity(unchecked) private var isInTurn = false
    /// Where the current turn's events begin in the log.
    @exclusivity(unchecked) private var currentStart = 0
    /// Where the events since the last turn ended begin in the log (from the start, before the
    /// first turn); none while a turn is in progress.
    @exclusivity(unchecked) private var idleStart = 0

    /// The events since the last turn ended.
    var idleEvents: Range<Int> { idleStart..<(isInTurn ? idleStart : log.endIndex) }
    /// The events of the turn under way so far; nil between turns.
    var turnEventsSoFar: Range<Int>? { isInTurn ? currentStart..<log.endIndex : nil }

    /// Turns recorded since attaching, including evicted ones.
    @exclusivity(unchecked) public private(set) var recordedTurnCount = 0
    /// Turns the ring has evicted.
    @exclusivity(unchecked) public private(set) var evictedTurnCount = 0
    /// Events dropped because a turn exceeded `maxEventsPerTurn`.
    @exclusivity(unchecked) public private(set) var droppedEventCount = 0

    /// The streaming file, when streaming.
    @exclusivity(unchecked) var stream: TraceStream?
    /// The async generations in flight, when a test's watchdog asked for them
    /// (`trackPendingWork()`); nil otherwise, and then generation events cost one check.
    package private(set) var pendingWork: PendingWork?

    /// Keeps the async generations in flight from now on, readable from any thread.
    package func trackPendingWork() -> PendingWork {
        if let pendingWork { return pendingWork }
        let tracked = PendingWork()
        pendingWork = tracked
        return tracked
    }
    /// The last turn that ended (0 before the first): where a failure noted now falls. Atomic,
    /// so a test framework can read it from the thread where it records an issue.
    private let lastEndedTurn = Atomic<Int>(0)

    /// The turn under way, or the last that ended between turns.
    var turnNow: Int { current?.info.id ?? lastEndedTurnNow }

    /// The last turn that ended, read from any thread.
    nonisolated public var lastEndedTurnNow: Int { lastEndedTurn.load(ordering: .relaxed) }
    /// The failures the test noted, in order, each after the turn that ended last before it.
    public private(set) var failures: [TraceFailure] = []
    /// What stopped streaming, reported once each (a full disk, a removed file). Reading it
    /// first waits until every record streamed so far is written, so a fault is never missed.
    public var faults: [RecorderFault] {
        stream?.settle(recorder: self)
        return reportedFaults
    }
    var reportedFaults: [RecorderFault] = []

    /// A recorder; attach it to a runtime to start recording.
    public init(configuration: RecorderConfiguration = RecorderConfiguration()) {
        self.configuration = configuration
        self.timeline = RecordingTimeline(configuration.clock)
    }

    /// A big state table is let go on a background queue rather than by the thread dropping the
    /// recorder. Each entry holds its declaration's description, and one declaration has one
    /// description per runtime, so a lattice's 4,000 declarations are 4,000 objects released one
    /// by one, each a cache line long gone cold, a visible part of a big run's teardown on the
    /// app's thread (docs/performance.md, "Recorder and streaming"). The entries are Sendable and hold nothing of the app's, so any thread may
    /// release them. The event log stays: its boxed values are the app's.
    nonisolated deinit {
        guard stateInfos.count > Self.stateTableReleasedHere else { return }
        // Swapped out, so the queue holds the table's only reference and releases it there.
        var table: ContiguousArray<CogStateInfo> = []
        swap(&table, &stateInfos)
        let released = consume table
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(released) {} }
    }

    /// States in a table small enough to be released where the recorder is: releasing a smaller
    /// one costs less than waking a queue's thread.
    nonisolated static let stateTableReleasedHere = 256

    /// Starts recording `cogs`, beside any probe already attached (a test's failure recorder,
    /// say); the recorder first hears of the states the runtime already holds.
    public func attach(to cogs: Cogs) {
        cogs.addProbe(self)
    }

    /// How many turns the ring holds now.
    public var retainedTurnCount: Int { ring.count }

    /// The retained turns, oldest first, as the trace records them.
    public var retainedTurns: [TraceTurn] {
        var converter = TraceConverter(from: baseSnapshot)
        return orderedRing.map { traced($0, with: &converter) }
    }

    /// The retained turns, oldest first, as recorded.
    var orderedRing: [RecordedTurn] {
        var ordered: [RecordedTurn] = []
        ordered.reserveCapacity(ring.count)
        ordered.append(contentsOf: ring[ringHead...])
        ordered.append(contentsOf: ring[..<ringHead])
        return ordered
    }

    /// The newest retained turn's number; 0 when none is.
    var newestRetainedTurn: Int { ring.isEmpty ? 0 : ring[newestIndex].info.id }

    // MARK: Turns

    /// Whether the log takes the next event: always between turns, and in a turn until it holds
    /// `maxEventsPerTurn` events; past that the event is counted as dropped. (Each entry point
    /// tests this rather than passing a closure: a closure formed here would check the MainActor
    /// executor every time it ran.)
    @inline(__always)
    func accepts() -> Bool {
        guard isInTurn, log.endIndex - currentStart >= configuration.maxEventsPerTurn else {
            if log.endIndex >= partEnd { handOverPart() }
            return true
        }
        droppedEventCount += 1
        return false
    }

    /// Where the log must reach, while streaming, before the events since the last hand-over
    /// (of the turn under way, or of the stretch between turns) go to the stream as a part;
    /// never reached otherwise.
    @exclusivity(unchecked) var partEnd = Int.max

    private func handOverPart() {
        stream?.handOverPart(upTo: log.endIndex, recorder: self)
        schedulePart()
    }

    /// Sets where the next part is due: a part's length on, while streaming.
    func schedulePart() {
        partEnd = stream != nil ? log.endIndex + TraceStream.partSize : .max
    }

    /// A turn began: the events since the last one are closed off, and the turn's start.
    func beginTurn(_ turn: CogTurnInfo) {
        if stream != nil { stream?.willBeginTurn(turn.id, idle: idleEvents, recorder: self) }
        // The events since the last turn belong to it (or, before the first, to the base).
        if !ring.isEmpty { ring[newestIndex].afterEnd = log.endIndex }
        current = (turn, timeline.now())
        currentStart = log.endIndex
        idleStart = log.endIndex
        isInTurn = true
        schedulePart()
    }

    /// The turn ended: it is retained (evicting the oldest when the ring is full) and streamed.
    func endTurn() {
        guard let (info, start) = current else { return }
        current = nil
        isInTurn = false
        let end = log.endIndex
        let turn = RecordedTurn(
            info: info, start: start, duration: timeline.now() - start,
            events: currentStart..<end, afterEnd: end)
        idleStart = end
        recordedTurnCount += 1
        lastEndedTurn.store(info.id, ordering: .relaxed)
        stream?.append(turn, recorder: self)
        retain(turn)
        schedulePart()
    }

    private func retain(_ turn: RecordedTurn) {
        if ring.count < configuration.capacity {
            ring.append(turn)
            newestIndex = ring.count - 1
            return
        }
        // The oldest turn's events, and those after it, join the base.
        fold(upTo: ring[ringHead].afterEnd)
        ring[ringHead] = turn
        newestIndex = ringHead
        ringHead = ringHead + 1 == ring.count ? 0 : ringHead + 1
        evictedTurnCount += 1
    }
}

extension CogRecorder {
    /// Notes that the test running this runtime reported a failure now: the trace gets a failure
    /// record after the last turn that ended, so the inspector can open the trace there.
    /// `after` says which turn had ended last when the failure happened, when that was not now.
    public func noteFailure(
        test: String, kind: TraceFailure.Kind, message: String, file: String? = nil, line: Int? = nil,
        after: Int? = nil
    ) {
        let failure = TraceFailure(
            after: TurnNumber(after ?? lastEndedTurnNow), test: test, kind: kind, message: message, file: file,
            line: line)
        failures.append(failure)
        stream?.append(failure, recorder: self)
    }
}
