package import CogTraceFormat
import Foundation

/// What one read of a followed trace added.
public struct TraceGrowth: Equatable, Sendable {
    /// The positions, among the trace's turns, of the turns that arrived.
    public let newTurns: Range<Int>
    /// How many states were named for the first time.
    public let newStates: Int
    /// How many failure records arrived.
    public let newFailures: Int
    /// Whether the events after the turn that was last before this read arrived: the graph after
    /// that turn is then not what it was.
    public let extendedLastTurn: Bool
    /// Whether the trailer arrived: the recorder finished and nothing more will come.
    public let reachedTrailer: Bool

    /// Whether the read added nothing a reader would see.
    public var isEmpty: Bool {
        newTurns.isEmpty && newStates == 0 && newFailures == 0 && !extendedLastTurn && !reachedTrailer
    }
}

extension TraceFile {
    /// Reads the complete lines of `bytes`, the start of a file still being written: a last line
    /// without its line feed waits for the rest, and no trailer is no warning (it has not come
    /// yet). Nil when no complete header line is there yet.
    /// - Throws: `TraceReadError` for a malformed line, as `load` does.
    /// With `index` applying and a sidecar index of the file at `url` there, the part the index
    /// covers is not read again: only the lines past it are.
    static func following(
        _ bytes: [UInt8], memoryBudget: MemoryBudget = .standard, url: URL? = nil, index: TraceIndexUse = .off,
        note: ((String) -> Void)? = nil
    ) throws(TraceReadError) -> TraceFile? {
        var contents = TraceContents()
        let bytes = TraceBytes(bytes)
        if let url, index.applies(to: bytes),
            let reopened = try TraceIndexStore.reopen(
                url, bytes: bytes, memoryBudget: memoryBudget, following: true, note: note)
        {
            reopened.file.memoryBudget = memoryBudget
            return reopened.file
        }
        try contents.read(bytes, memoryBudget: memoryBudget, waitsForPartialLine: true)
        guard let header = contents.header else { return nil }
        let file = TraceFile(header: header, contents: contents, bytes: bytes)
        file.memoryBudget = memoryBudget
        return file
    }

    /// Adds bytes that arrived at the end of the file and reads the complete lines among them.
    ///
    /// Only the thread that owns the trace may call this, and only while no other thread reads
    /// it (an event index built in the background must be finished first): the bytes and turn
    /// positions other threads may borrow change here.
    /// - Throws: `TraceReadError` for a malformed line; what was read before it stays.
    package func append(_ arrived: [UInt8]) throws(TraceReadError) -> TraceGrowth {
        let turnsBefore = contents.entries.count
        let statesBefore = contents.states.count
        let failuresBefore = contents.failures.count
        let previousLast = contents.entries.last
        let hadTrailer = contents.trailer != nil
        bytes.append(contentsOf: arrived)
        defer { forgetGraphs(after: previousLast, turnsBefore: turnsBefore) }
        try contents.read(bytes, memoryBudget: memoryBudget, waitsForPartialLine: true)
        let extended = previousLast.map { contents.entries[turnsBefore - 1].idle?.range != $0.idle?.range } ?? false
        return TraceGrowth(
            newTurns: turnsBefore..<contents.entries.count, newStates: contents.states.count - statesBefore,
            newFailures: contents.failures.count - failuresBefore, extendedLastTurn: extended,
            reachedTrailer: !hadTrailer && contents.trailer != nil)
    }

    /// Drops cached graphs that what arrived may change: those after the turn that was last, or
    /// later, once a turn or its idle events came.
    private func forgetGraphs(after previousLast: TurnEntry?, turnsBefore: Int) {
        guard let previousLast else {
            if !contents.entries.isEmpty || contents.leadingIdle != nil { snapshotCache.removeAll() }
            return
        }
        let changed =
            contents.entries.count > turnsBefore
            || contents.entries[turnsBefore - 1].idle?.range != previousLast.idle?.range
        if changed { snapshotCache = snapshotCache.filter { $0.key < previousLast.sequence } }
    }

    /// How many of the file's bytes have been read as lines: the rest is a line still arriving.
    package var readByteCount: Int { contents.readOffset }
}

extension TraceFile {
    /// Starts waiting for more of a file loaded whole: a truncated last line will be read again
    /// when its end arrives, and no trailer is no longer a warning. False when the trailer is
    /// already there, so nothing more will come.
    package func resumeFollowing() -> Bool {
        guard trailer == nil else { return false }
        contents.resume(byteCount: bytes.count)
        return true
    }

    /// How many turns positions there are (`turnEntries.count`), for readers outside the module.
    package var turnPositionCount: Int { contents.entries.count }

    /// The idle events after the turn at `position`, decoded; empty when it has none.
    /// - Throws: `TraceReadError` naming the line when the idle record is malformed.
    package func idleEvents(at position: Int) throws(TraceReadError) -> [TraceEvent] {
        guard let idle = contents.entries[position].idle else { return [] }
        let record = try TraceScanner.parseLine(bytes[idle.range], line: idle.line)
        return try TraceScanner.decodeEvents(record, line: idle.line)
    }

    /// The turn at `position`, decoded with its idle events.
    package func decodedTurn(at position: Int) throws(TraceReadError) -> TraceTurn {
        try decodeTurn(contents.entries[position])
    }

    /// The idle record's place after the turn at `position`, to notice it arriving late.
    package func idleRange(at position: Int) -> Range<Int>? { contents.entries[position].idle?.range }
}
