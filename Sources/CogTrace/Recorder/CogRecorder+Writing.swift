import Cog
import CogTraceStore
public import Foundation

extension CogRecorder {
    /// The header this recorder writes.
    func header(mode: String) -> TraceHeader {
        let runID = timeline.isVirtual ? "virtual:\(configuration.title)" : Self.randomRunID()
        var header = TraceHeader(
            runID: runID, title: configuration.title, clock: timeline.isVirtual ? "virtual" : "monotonic", mode: mode,
            capacity: configuration.capacity, keyframeInterval: configuration.keyframeInterval)
        // A stream is followed while it is written; a follower on this machine checks the
        // writer is still alive when nothing arrives. A ring is written whole, at the end.
        if mode == "stream" {
            header.writer = .current
            header.test = configuration.testName
        }
        header.ci = configuration.runMetadata
        return header
    }

    /// A random (version 4) UUID in lowercase, from the system's generator: `UUID()` opens and
    /// reads `/dev/urandom` here, which was a visible part of starting a stream. The sixteen
    /// bytes come from one `getentropy` call (one system call; the standard generator makes
    /// one per eight bytes), or from the standard generator should that fail.
    static func randomRunID() -> String {
        var bytes: (UInt64, UInt64) = (0, 0)
        if withUnsafeMutableBytes(of: &bytes, { getentropy($0.baseAddress, $0.count) }) != 0 {
            var generator = SystemRandomNumberGenerator()
            bytes = (generator.next(), generator.next())
        }
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = raw[6] & 0x0F | 0x40
            raw[8] = raw[8] & 0x3F | 0x80
            return uuidText(UnsafeRawBufferPointer(raw))
        }
    }

    /// Sixteen bytes as a UUID's lowercase text, `8-4-4-4-12` hex digits: `UUID.uuidString`
    /// formats with `snprintf`, two thirds of what starting a stream cost in instructions.
    static func uuidText(_ raw: UnsafeRawBufferPointer) -> String {
        precondition(raw.count == 16, "a UUID is sixteen bytes")
        let hex: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 36) { text in
            var position = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[position] = UInt8(ascii: "-")
                    position += 1
                }
                text[position] = hex.utf8Start[Int(raw[index] >> 4)]
                text[position + 1] = hex.utf8Start[Int(raw[index] & 0x0F)]
                position += 2
            }
            return position
        }
    }

    /// Writes the retained history as a trace: header, states, a keyframe of the graph just before
    /// the oldest retained turn, the turns (with a keyframe every `keyframeInterval`), and a trailer.
    ///
    /// - Parameter url: The file to write; replaced atomically (written beside it, flushed,
    ///   renamed over it), never through a symbolic link.
    /// - Throws: An error saying why the file cannot be written (a link, a directory, a full
    ///   disk); the file is then as it was.
    public func write(to url: URL) throws {
        try SafeFile.write(Array(traceText().utf8), to: url.path, replacing: true)
    }

    /// The trace as text, exactly as `write(to:)` writes it.
    public func traceText() -> String { traceText(asCheckpoint: false) }

    /// The trace of a test that has not ended, as its checkpoint on disk: the retained history
    /// with a stream's header (the writing process and the test's name) and no trailer, so that
    /// if the process dies with nothing more written the trace reads as a test cut short.
    package func checkpointText() -> String { traceText(asCheckpoint: true) }

    private func traceText(asCheckpoint: Bool) -> String {
        var lines = TraceLines()
        lines.append(header(mode: asCheckpoint ? "stream" : "ring").jsonValue)
        for info in stateInfos { lines.append(info) }
        let turns = orderedRing
        var converter = TraceConverter(from: baseSnapshot)
        lines.append(converter.snapshot.keyframeJSONValue(before: turns.first?.info.id ?? recordedTurnCount + 1))
        var keyframes = 1
        for (index, turn) in turns.enumerated() {
            if index > 0, index % configuration.keyframeInterval == 0 {
                lines.append(converter.snapshot.keyframeJSONValue(before: turn.info.id))
                keyframes += 1
            }
            lines.append(heading(of: turn), events: portable(turn.events, settling: false), convertedBy: &converter)
            lines.appendIdle(
                after: turn.info.id, events: portable(turn.after, settling: false), convertedBy: &converter)
        }
        lines.appendIdle(
            after: turns.last?.info.id ?? 0, events: portable(idleEvents, settling: false), convertedBy: &converter)
        for failure in failures { lines.append(failure.jsonValue) }
        if asCheckpoint { return lines.text }
        lines.append(
            TraceTrailer(
                ok: true, turns: recordedTurnCount, evicted: evictedTurnCount, dropped: droppedEventCount,
                keyframes: keyframes
            ).jsonValue)
        return lines.text
    }

    /// The graph as recorded now: the base snapshot with every retained turn and idle event applied.
    public func currentSnapshot() -> GraphSnapshot {
        var snapshot = baseSnapshot
        for turn in orderedRing {
            TraceConverter.fold(portable(turn.events.lowerBound..<turn.afterEnd, settling: false), into: &snapshot)
        }
        TraceConverter.fold(portable(idleEvents, settling: false), into: &snapshot)
        return snapshot
    }

    /// Starts appending to `url`: the header and what is known now are written at once, then
    /// each turn as it ends and a keyframe every `keyframeInterval` turns.
    ///
    /// - Throws: `RecorderFault` naming the path and the reason when the file cannot be opened,
    ///   as far as can be told without creating it (the writer's thread creates it); a refusal
    ///   only opening meets is reported in `faults`, as a failed write is.
    public func startStreaming(to url: URL) throws(RecorderFault) {
        stream = try TraceStream(url: url, recorder: self)
        schedulePart()
    }

    /// Notes a fault once: kept in `faults` for the app to read, and one line on standard error.
    /// The app and the in-memory ring carry on.
    func report(_ fault: RecorderFault) {
        reportedFaults.append(fault)
        RuntimeStandardError.write("CogTrace: streaming stopped: \(fault)\n")
    }

    /// Waits until every turn streamed so far is in the file (records are written on a thread
    /// of their own, a moment after their turn): for a test or a tool that reads the file while
    /// the app goes on.
    public func flushStream() {
        stream?.settle(recorder: self)
    }

    /// Ends streaming: writes what happened since the last turn and a trailer marking the file
    /// complete, then closes it.
    public func finishStreaming() {
        stream?.finish(recorder: self)
        stream = nil
        schedulePart()
    }
}
