import Cog
import CogTraceFormat
import Foundation

/// A trace file being appended to as turns end. On the app's thread each turn's packed events
/// are copied and its values rendered (`PortableEvents`); the writer's thread (`StreamWriter`)
/// converts them against the graph, encodes and writes them, so a crash loses at most what was
/// in flight. A write that fails (a full disk, a file removed or replaced under it) is reported
/// once and streaming stops, while the app and the in-memory ring carry on; what was written
/// still opens, with a warning that it is incomplete.
///
/// Its properties opt out of dynamic exclusivity checks, as the recorder's do: it is confined
/// to the MainActor and no path holds a mutating access to one of them while another begins (a
/// check was four calls into the runtime a turn).
@MainActor
final class TraceStream {
    private let writer: StreamWriter
    /// How many of the recorder's states (in first-seen order) are already handed to the writer.
    @exclusivity(unchecked) private var writtenStateCount = 0
    @exclusivity(unchecked) private var keyframes = 0
    @exclusivity(unchecked) private var lastSequence = 0
    @exclusivity(unchecked) private var failure: RecorderFault?
    /// What happened since the last turn (and a keyframe due), held until the next turn ends so
    /// that a turn costs the app's thread one hand-over, not two. Turns are synchronous, so
    /// this is held for one turn's length at most. After each hand-over it is the empty batch
    /// the writer returned, often one it has written before, so filling it allocates nothing.
    @exclusivity(unchecked) private var held = StreamBatch()
    /// Where the events handed over in parts end, of the turn or the idle stretch under way,
    /// when some were (`handOverPart`).
    @exclusivity(unchecked) private var partsHandedEnd: Int?
    /// Events a turn or an idle stretch gathers before they are handed over as a part: an app
    /// that does much in one go (a first read building a big graph, a turn recomputing all of
    /// it) has the writer converting beside it rather than all at once when the turn or the
    /// stretch ends. Small, since the stretch's last part is converted on the app's thread when
    /// the stream finishes: with 2,048 that was 3M instructions of a cellx run's finish, and ten
    /// rounds put its stream x at 2.15 with 256 against 2.27 with 2,048 (medians).
    static let partSize = 256

    /// Opens (creating or truncating) the file at `url`. A fault found later is reported to the
    /// recorder passed to the call that finds it: the stream holds no reference to its recorder,
    /// since a weak one would move the recorder's reference count into a side table, and the
    /// runtime retains its probe on every settle (the slow path was 0.17x of a diamond run).
    /// - Throws: `RecorderFault` when it cannot be opened, naming the path and the system's reason.
    init(url: URL, recorder: CogRecorder) throws(RecorderFault) {
        writer = try StreamWriter(
            path: url.path, writing: recorder.configuration.streamWriting,
            startingFrom: SettledSnapshot(settling: recorder.currentSnapshot()))
        lastSequence = recorder.newestRetainedTurn
        var batch = StreamBatch()
        batch.append(.line(recorder.header(mode: "stream").jsonValue))
        appendNewStates(recorder, to: &batch)
        batch.append(.keyframe(before: lastSequence + 1))
        keyframes = 1
        held = writer.write(consume batch)
    }

    /// Before turn `sequence`: what happened since the last turn, and a keyframe when one is due.
    func willBeginTurn(_ sequence: Int, idle: Range<Int>, recorder: CogRecorder) {
        guard !noticeFault(recorder) else { return }
        if !idle.isEmpty { appendClosing(idle, recorder: recorder, to: &held) }
        if sequence > 1, (sequence - 1) % recorder.configuration.keyframeInterval == 0 {
            held.append(.keyframe(before: sequence))
            keyframes += 1
        }
    }

    /// A turn ended: its new states, then its record.
    func append(_ turn: RecordedTurn, recorder: CogRecorder) {
        guard !noticeFault(recorder) else { return }
        var batch = takeHeld()
        appendNewStates(recorder, to: &batch)
        assert(turn.after.isEmpty, "a turn is streamed as it ends")
        let rest = max(partsHandedEnd ?? turn.events.lowerBound, turn.events.lowerBound)..<turn.events.upperBound
        partsHandedEnd = nil
        let events = recorder.portable(rest, settling: true, into: &batch.events)
        batch.append(.turn(recorder.heading(of: turn), events: events))
        held = writer.write(consume batch)
        lastSequence = turn.info.id
    }

    /// A failure the test noted: handed over at once, so a test that crashes next still leaves it.
    func append(_ failure: TraceFailure, recorder: CogRecorder) {
        guard !noticeFault(recorder) else { return }
        var batch = takeHeld()
        batch.append(.line(failure.jsonValue))
        held = writer.write(consume batch)
    }

    /// Waits until everything handed over is written, and reports a fault that stopped it.
    func settle(recorder: CogRecorder) {
        if !held.isEmpty, !noticeFault(recorder) { held = writer.write(takeHeld()) }
        writer.drain()
        _ = noticeFault(recorder)
    }

    /// Writes the events since the last turn and the trailer, then closes the file.
    func finish(recorder: CogRecorder) {
        if !noticeFault(recorder) {
            var batch = takeHeld()
            if !recorder.idleEvents.isEmpty {
                appendClosing(recorder.idleEvents, recorder: recorder, to: &batch)
            }
            batch.append(
                .line(
                    TraceTrailer(
                        ok: true, turns: recorder.recordedTurnCount, evicted: 0, dropped: recorder.droppedEventCount,
                        keyframes: keyframes
                    ).jsonValue))
            writer.close(after: consume batch)
        } else {
            writer.close()
        }
        _ = noticeFault(recorder)
    }

    /// Hands over the events of the turn or the idle stretch under way up to `end`, as a part.
    /// What is held (the stretch before the turn, a keyframe due) goes first, so the writer
    /// converts in the order the events happened.
    func handOverPart(upTo end: Int, recorder: CogRecorder) {
        guard !noticeFault(recorder) else { return }
        let turnEvents = recorder.turnEventsSoFar
        let start = partsHandedEnd ?? (turnEvents ?? recorder.idleEvents).lowerBound
        guard start < end else { return }
        var batch = takeHeld()
        appendNewStates(recorder, to: &batch)
        let events = recorder.portable(start..<end, settling: true, into: &batch.events)
        batch.append(turnEvents != nil ? .turnPart(events) : .idlePart(after: lastSequence, events))
        held = writer.write(consume batch)
        partsHandedEnd = end
    }

    /// Appends the records that end the idle stretch `idle`: its new states, then its events
    /// not handed over yet as an `idle` record, which also closes one begun in parts.
    private func appendClosing(_ idle: Range<Int>, recorder: CogRecorder, to batch: inout StreamBatch) {
        defer { partsHandedEnd = nil }
        let rest = max(partsHandedEnd ?? idle.lowerBound, idle.lowerBound)..<idle.upperBound
        appendNewStates(recorder, to: &batch)
        let events = recorder.portable(rest, settling: true, into: &batch.events)
        batch.append(.idle(after: lastSequence, events))
    }

    /// What is held, leaving nothing held.
    private func takeHeld() -> StreamBatch {
        var taken = StreamBatch()
        swap(&taken, &held)
        return taken
    }

    /// Appends the state records not handed over yet.
    private func appendNewStates(_ recorder: CogRecorder, to batch: inout StreamBatch) {
        let count = recorder.stateInfos.count
        guard writtenStateCount < count else { return }
        for index in writtenStateCount..<count { batch.append(.state(recorder.stateInfos[index])) }
        writtenStateCount = count
    }

    /// Whether streaming has stopped; reports the writer's fault to `recorder` the first time it
    /// is seen.
    private func noticeFault(_ recorder: CogRecorder) -> Bool {
        if failure != nil { return true }
        guard let fault = writer.currentFault else { return false }
        failure = fault
        recorder.report(fault)
        return true
    }
}
