public import CogTraceFormat

/// Moving through a trace's graphs in turn order: start from the keyframe at or before a turn,
/// then apply turns one at a time. `snapshot(after:)` and bisect share it, so a scan over many
/// turns applies each turn once instead of rebuilding from a keyframe for every one.
public struct SnapshotWalk {
    private let trace: TraceFile
    /// The graph after the last turn applied (or the keyframe's, before any).
    public private(set) var snapshot: GraphSnapshot
    /// The position among the trace's turns of the next turn to apply.
    private var nextIndex: Int
    /// The keyframe the walk started from, while the turns it applies are still checked against
    /// it (up to the next keyframe).
    private var checking: (keyframe: Int, until: Int)?
    /// The last turn applied, decoded, so a caller that needs it too does not decode it again.
    public private(set) var lastTurn: TraceTurn?
    /// Whether to decode a batch of turns ahead, on every core, for a walk that will go on (bisect).
    private let readsAhead: Bool
    /// Turns decoded ahead, from position `bufferStart`.
    private var buffer: [Result<TraceTurn, TraceReadError>] = []
    private var bufferStart = 0

    init(
        trace: TraceFile, snapshot: GraphSnapshot, nextIndex: Int, keyframe: Int? = nil, readsAhead: Bool = false
    ) {
        self.trace = trace
        self.snapshot = snapshot
        self.nextIndex = nextIndex
        self.readsAhead = readsAhead
        checking = keyframe.flatMap { trace.checking(from: $0) }
    }

    /// The turn at position `index` (at or after `nextIndex`), from the read-ahead buffer or
    /// decoded now.
    private mutating func decoded(at index: Int, before end: Int) throws(TraceReadError) -> TraceTurn {
        if index >= bufferStart, index < bufferStart + buffer.count { return try buffer[index - bufferStart].get() }
        let reach = readsAhead ? trace.turnEntries.count : end
        let batchEnd = min(reach, index + TraceFile.decodeBatchSize)
        guard batchEnd - index > 64 else { return try trace.decodeTurn(trace.turnEntries[index]) }
        buffer = trace.decodeBatch(index..<batchEnd)
        bufferStart = index
        return try buffer[0].get()
    }

    /// The graph just after turn `sequence` (at or after the walk's position), jumping to a later
    /// keyframe when one is nearer than the turns left to apply.
    /// - Throws: `TraceReadError` for a malformed turn on the way, or `TraceFile.cancelled` when
    ///   the trace's cancellation check asked to stop.
    public mutating func advance(through sequence: TurnNumber) throws(TraceReadError) -> GraphSnapshot {
        if let jump = trace.keyframeIndex(before: sequence), jump.entryIndex > nextIndex {
            try restart(at: jump)
        }
        let end = trace.firstEntryIndex(atOrAfter: sequence.rawValue == Int.max ? sequence : sequence + 1)
        // A long stretch is decoded a batch at a time on every core, then applied in order; a few
        // turns are decoded one by one.
        var applied = 0
        while nextIndex < end {
            let turn = try decoded(at: nextIndex, before: end)
            if let checking, nextIndex < checking.until {
                // Each event is checked against the graph before it, so a turn that writes a state
                // twice is judged by its own first write.
                var disagreement: KeyframeDisagreement?
                for event in turn.events {
                    disagreement = trace.disagreement(
                        of: checking.keyframe, in: turn.sequence, event: event, graph: snapshot)
                    if disagreement != nil { break }
                    snapshot.apply(event)
                }
                if let disagreement {
                    // The keyframe is wrong: start again from the one before it (or the trace's start).
                    trace.reject(keyframe: checking.keyframe, because: disagreement)
                    let earlier = trace.keyframeIndex(before: sequence)
                    try restart(at: earlier ?? trace.keyframeIndex(before: TurnNumber(Int.min)))
                    continue
                }
            } else {
                for event in turn.events { snapshot.apply(event) }
            }
            for event in turn.after { snapshot.apply(event) }
            if let checking, nextIndex < checking.until {
                trace.keyframeCheckedThrough[checking.keyframe] = nextIndex + 1
            }
            lastTurn = turn
            nextIndex += 1
            applied += 1
            if applied % 256 == 0, trace.isCancelled() { throw TraceFile.cancelled }
        }
        return snapshot
    }

    /// Goes back to keyframe `position` (the empty graph when nil) to apply turns from there.
    private mutating func restart(at position: (keyframe: Int, entryIndex: Int)?) throws(TraceReadError) {
        guard let position else {
            snapshot = GraphSnapshot()
            nextIndex = 0
            checking = nil
            return
        }
        let trusted = try trace.trustedStart(position)
        let start = try trace.start(at: trusted)
        snapshot = start.snapshot
        nextIndex = start.nextIndex
        checking = trace.checking(from: trusted.keyframe)
    }
}

extension TraceFile {
    /// What a walk or an index build throws when the cancellation check asked it to stop.
    public static let cancelled = TraceReadError(line: 0, message: "interrupted")

    /// Whether the caller asked long work on this trace to stop (Ctrl-C in the inspector).
    func isCancelled() -> Bool { cancellation?() ?? false }

    /// A walk positioned at the keyframe at or before turn `sequence` (the trace's start when
    /// none is), before any turn is applied.
    /// - Parameter readsAhead: decode turns a batch ahead on every core, for a walk that goes on
    ///   through many turns (bisect); a single snapshot reads only what it needs.
    public func walk(from sequence: TurnNumber, readsAhead: Bool = false) throws(TraceReadError) -> SnapshotWalk {
        let nearest = keyframeIndex(before: sequence) ?? keyframeIndex(before: TurnNumber(Int.min))
        guard let found = nearest else {
            return SnapshotWalk(trace: self, snapshot: GraphSnapshot(), nextIndex: 0, readsAhead: readsAhead)
        }
        let keyframe = try trustedStart(found)
        let start = try start(at: keyframe)
        return SnapshotWalk(
            trace: self, snapshot: start.snapshot, nextIndex: start.nextIndex, keyframe: keyframe.keyframe,
            readsAhead: readsAhead)
    }

    /// The last keyframe whose graph precedes turn `sequence + 1`, with the position of the first
    /// turn it does not include; the first keyframe when `sequence` is `Int.min`.
    func keyframeIndex(before sequence: TurnNumber) -> (keyframe: Int, entryIndex: Int)? {
        let index =
            sequence.rawValue == Int.min
            ? (keyframes.isEmpty ? nil : 0)
            : keyframes.indices.last {
                keyframes[$0].before.rawValue <= sequence.rawValue &+ 1 && !rejectedKeyframes.contains($0)
            }
        guard let index else { return nil }
        return (index, firstEntryIndex(atOrAfter: keyframes[index].before))
    }

    /// The keyframe's graph, with the idle events before the first turn when it stands there.
    func start(
        at position: (keyframe: Int, entryIndex: Int)
    ) throws(TraceReadError) -> (
        snapshot: GraphSnapshot, nextIndex: Int
    ) {
        let keyframe = keyframes[position.keyframe]
        var snapshot = keyframe.snapshot
        if keyframe.before == turnEntries.first?.sequence, let leadingIdle {
            let record = try TraceScanner.parseLine(bytes[leadingIdle.range], line: leadingIdle.line)
            for event in try TraceScanner.decodeEvents(record, line: leadingIdle.line) { snapshot.apply(event) }
        }
        return (snapshot, position.entryIndex)
    }
}

extension TraceFile {
    /// How a walk from keyframe `keyframe` checks it: up to the next keyframe's first turn; nil
    /// when every such turn was checked already, or the keyframe is rejected and nothing earlier
    /// is left to start from (the trace's first keyframe).
    func checking(from keyframe: Int) -> (keyframe: Int, until: Int)? {
        guard !rejectedKeyframes.contains(keyframe) else { return nil }
        let next =
            keyframe + 1 < keyframes.count
            ? firstEntryIndex(atOrAfter: keyframes[keyframe + 1].before) : turnEntries.count
        guard (keyframeCheckedThrough[keyframe] ?? 0) < next else { return nil }
        return (keyframe, next)
    }
}

extension TraceFile {
    /// The graph as the recording found it before its first turn: what existed when the
    /// recorder attached (seeded sources, in a test's recording). Nil when the recording does
    /// not start with a keyframe before its first turn.
    public var graphBeforeFirstTurn: GraphSnapshot? {
        guard let first = turnSequences.first else { return keyframes.first?.snapshot }
        return keyframes.first { $0.before == first }?.snapshot
    }

    /// The events recorded between the recording's start and its first turn: the reads and
    /// seeds an app or a test made before anything changed. Empty when there were none.
    /// - Throws: `TraceReadError` naming the line if the record is malformed.
    public func leadingIdleEvents() throws(TraceReadError) -> [TraceEvent] {
        guard let leadingIdle else { return [] }
        let record = try TraceScanner.parseLine(bytes[leadingIdle.range], line: leadingIdle.line)
        return try TraceScanner.decodeEvents(record, line: leadingIdle.line)
    }
}

extension TraceFile {
    /// The trace's text from its start through turn `last` and the work after it: the lines a
    /// recording of the run up to there would hold (without a trailer unless `last` is the last
    /// turn), for a tool that embeds a recording (`export test`).
    /// - Throws: `TraceReadError` when the trace has no turn `last`.
    public func text(through last: TurnNumber) throws(TraceReadError) -> String {
        guard let index = entryIndex(of: last) else {
            throw TraceReadError(line: 0, message: "no turn \(last) in this trace")
        }
        let end = index + 1 < turnEntries.count ? turnEntries[index + 1].range.lowerBound : bytes.count
        return String(decoding: bytes[0..<end], as: UTF8.self)
    }
}
