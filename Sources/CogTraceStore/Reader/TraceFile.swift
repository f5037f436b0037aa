public import CogTraceFormat
public import Foundation

/// A loaded `.cogtrace`: the header, the state table and keyframes decoded eagerly, and an index
/// of turn records that are decoded when asked for. Loading scans line offsets rather than
/// parsing every turn, so a large trace opens quickly.
public final class TraceFile {
    /// Where one turn's record (and the idle record after it) sit in the file.
    struct TurnEntry {
        let sequence: TurnNumber
        let line: Int
        let range: Range<Int>
        var idle: (line: Int, range: Range<Int>)?
    }

    public let header: TraceHeader
    /// What reading the file's lines found; a followed trace extends it as lines arrive.
    var contents: TraceContents
    /// Every state the trace names, by id.
    public var states: [NodeID: TraceStateInfo] { contents.states }
    /// The failures the recorded test reported, in turn order (format 1.1; none in older files),
    /// and for a test that never ended, how it ended (`TraceFile+UnfinishedTest.swift`).
    public var failures: [TraceFailure] { failuresWithTestEnd }
    /// `failuresWithTestEnd` for the lines read so far: the turns, failures and trailer counted.
    var testEndCache: (key: (Int, Int, Bool), failures: [TraceFailure])?
    /// The trailer; nil when the recorder did not finish (a crash, or a stream still open).
    public var trailer: TraceTrailer? { contents.trailer }
    /// What the reader tolerated.
    public var warnings: [TraceWarning] { contents.warnings }
    /// Gaps in the turn numbering, in file order: turns whose records are not in the file.
    public var missingTurns: [MissingTurns] { contents.missingTurns }
    /// Keyframes in file order: the graph just before turn `before`.
    var keyframes: [(before: TurnNumber, snapshot: GraphSnapshot)] { contents.keyframes }
    var turnEntries: [TurnEntry] { contents.entries }
    /// Events recorded after the last keyframe's point but before the first turn (an idle record
    /// with no turn of its own in this file).
    var leadingIdle: (line: Int, range: Range<Int>)? { contents.leadingIdle }
    /// The file's bytes; a followed trace appends to them.
    var bytes: TraceBytes
    /// The longest keyframe record, in bytes: what one decoded graph costs, roughly.
    var largestKeyframeBytes: Int { contents.largestKeyframeBytes }
    var snapshotCache: [TurnNumber: GraphSnapshot] = [:]
    /// Keyframes the turns after them contradict (by position in `keyframes`): no walk starts there.
    var rejectedKeyframes: Set<Int> = []
    /// Keyframes found to agree with the replay from the keyframe before them (by position).
    var seamCheckedKeyframes: Set<Int> = []
    /// For each keyframe, the position of the first turn after it not yet checked against it.
    var keyframeCheckedThrough: [Int: Int] = [:]
    /// What `checkStructure()` found, once it ran.
    var structureCheck: StructureCheck?
    /// What the contradicted keyframes disagree about, in the order they were found.
    public internal(set) var keyframeDisagreements: [KeyframeDisagreement] = []
    /// The budget this file was loaded under; it also bounds the snapshot cache.
    var memoryBudget = MemoryBudget.standard
    /// How many snapshots the cache keeps: as many as fit in a quarter of the budget, judging each
    /// by the largest keyframe (at least 2, at most 64).
    private var snapshotCacheCapacity: Int {
        let largest = largestKeyframeBytes
        guard largest > 0 else { return 64 }
        let perSnapshot = largest * MemoryBudget.decodedBytesPerKeyframeByte
        return max(2, min(64, memoryBudget.bytes / 4 / perSnapshot))
    }
    /// Asked during long work (a walk over many turns, an index build): true stops it with
    /// `TraceFile.cancelled`. The inspector sets it to its Ctrl-C check.
    public var cancellation: (() -> Bool)?
    /// Told how long work over the whole trace (an index build, a table) is getting on, a batch
    /// at a time. The inspector forwards it to the front end, which owns showing it.
    public var progress: ((TraceProgress) -> Void)?

    /// A file whose lines `contents` has read, with the header it found.
    init(header: TraceHeader, contents: TraceContents, bytes: TraceBytes) {
        self.header = header
        self.contents = contents
        self.bytes = bytes
    }

    /// Reads the trace at `url`.
    /// - Throws: `TraceReadError` for a file that cannot be opened or is malformed beyond tolerance.
    /// - Parameter memoryBudget: how much memory the decoded keyframes may take; a file that
    ///   needs more is refused with the line where the budget ran out.
    public static func load(
        contentsOf url: URL, memoryBudget: MemoryBudget = .standard
    ) throws(TraceReadError)
        -> TraceFile
    {
        try load(contentsOf: url, memoryBudget: memoryBudget, progress: nil)
    }

    /// Reads the trace at `url`, saying how it is getting on: `progress` hears `loadingTask`
    /// once as the file is read, then in bytes as its lines are, so a front end can show it on
    /// a big file.
    /// - Throws: `TraceReadError` for a file that cannot be opened or is malformed beyond tolerance.
    /// - Parameters:
    ///   - index: whether to reopen from a sidecar index, and write one (`TraceIndexUse`).
    ///   - note: told, in one line, when an index is written, or rebuilt and why.
    public static func load(
        contentsOf url: URL, memoryBudget: MemoryBudget = .standard, progress: ((TraceProgress) -> Void)?,
        index: TraceIndexUse = .off, note: ((String) -> Void)? = nil
    ) throws(TraceReadError)
        -> TraceFile
    {
        progress?(TraceProgress(task: loadingTask, completed: 0, total: 1))
        let bytes = try readBytes(of: url)
        let indexed = index.applies(to: bytes)
        // A file cut shorter while it was read answered the reads past its new end with zeros:
        // nothing read from it may stand, nor be kept in an index.
        func refuseCutShort() throws(TraceReadError) {
            guard let change = bytes.cutShort else { return }
            throw TraceReadError(
                line: 0, message: "'\(url.relativePath)' was cut shorter while it was read (\(change)); open it again",
                isUnopenable: true)
        }
        if indexed,
            let reopened = try TraceIndexStore.reopen(
                url, bytes: bytes, memoryBudget: memoryBudget, progress: progress, note: note)
        {
            try refuseCutShort()
            reopened.file.memoryBudget = memoryBudget
            // A trace that grew past its index gets one for all of it.
            if !reopened.coveredAll { TraceIndexStore.save(reopened.file, of: url, note: note) }
            return reopened.file
        }
        let file: TraceFile
        do {
            file = try TraceScanner.scan(bytes, memoryBudget: memoryBudget, progress: progress)
        } catch {
            try refuseCutShort()
            throw error
        }
        try refuseCutShort()
        file.memoryBudget = memoryBudget
        if indexed { TraceIndexStore.save(file, of: url, note: note) }
        return file
    }

    /// What a load reports its progress as.
    public static let loadingTask = "loading the trace"

    /// The file's bytes, read straight into the array the reader keeps (no second copy); a file
    /// of `parallelAbove` bytes or more is read on every core.
    static func readBytes(
        of url: URL, parallelAbove threshold: Int = parallelReadThreshold
    ) throws(TraceReadError) -> TraceBytes {
        func unopenable(_ reason: String) -> TraceReadError {
            TraceReadError(line: 0, message: "cannot open '\(url.relativePath)': \(reason)", isUnopenable: true)
        }
        func systemReason(_ code: Int32) -> String {
            let text = String(cString: strerror(code))
            return text.prefix(1).lowercased() + text.dropFirst()
        }
        // Non-blocking, so a FIFO or a device is refused below instead of blocking the open.
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { throw unopenable(systemReason(errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw unopenable(systemReason(errno)) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw unopenable("it is a directory, not a trace file")
        case S_IFIFO: throw unopenable("it is a FIFO, not a regular file; save the stream to a file first")
        case S_IFCHR, S_IFBLK: throw unopenable("it is a device, not a regular file")
        case S_IFSOCK: throw unopenable("it is a socket, not a regular file")
        default: throw unopenable("not a regular file")
        }
        let size = Int(status.st_size)
        // A finished trace is mapped, not copied: the heap holds only what reading it indexes.
        if let mapped = TraceBytes.mapping(descriptor, size: size), mapped.endsWithTrailer { return mapped }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            initialized = 0
            // A big file is read in one share per core at once: most of a read is the kernel
            // giving the array fresh pages and copying into them, which then goes on every core.
            // A share that comes up short (the file shrank meanwhile) has the whole file read
            // again in one go, as a small file is.
            if size >= threshold, size > 0, readInShares(descriptor, into: buffer) {
                initialized = size
                return
            }
            guard let base = buffer.baseAddress else { return }
            while initialized < size {
                let count = pread(descriptor, base + initialized, size - initialized, off_t(initialized))
                if count < 0, errno == EINTR { continue }
                if count < 0 { failure = errno }
                if count <= 0 { break }
                initialized += count
            }
        }
        if failure != 0 { throw unopenable(systemReason(failure)) }
        return TraceBytes(bytes)
    }

    /// Files at least this big are read on every core (`readInShares`); below it, starting the
    /// other cores costs more than it saves.
    static let parallelReadThreshold = 32 << 20

    /// Fills `buffer` from the start of the file at `descriptor`, one share per core at once;
    /// false unless every share was read whole.
    private static func readInShares(_ descriptor: Int32, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        let target = SharedMutableBuffer(buffer: buffer)
        let complete = ParallelShares.map(0..<buffer.count) { share -> Bool in
            guard let base = target.buffer.baseAddress else { return share.isEmpty }
            var position = share.lowerBound
            while position < share.upperBound {
                let count = pread(descriptor, base + position, share.upperBound - position, off_t(position))
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                position += count
            }
            return true
        }
        return complete.allSatisfy { $0 }
    }

    /// Reads a trace from its text.
    public static func parse(_ text: String) throws(TraceReadError) -> TraceFile {
        try TraceScanner.scan(TraceBytes(Array(text.utf8)))
    }

    /// Reads a trace from raw bytes, which need not be valid UTF-8 (as a fuzzer hands them over).
    public static func parse(bytes: [UInt8]) throws(TraceReadError) -> TraceFile {
        try TraceScanner.scan(TraceBytes(bytes))
    }

    /// The turn numbers in this file, in order.
    public var turnSequences: [TurnNumber] { contents.sequences }

    /// The turns keyframes stand before, in order: the graph just before each is stored whole, so
    /// reaching it costs no replay.
    public var keyframeTurns: [TurnNumber] { keyframes.map(\.before) }

    /// How many turns the file holds.
    public var turnCount: Int { turnEntries.count }

    /// The id of the state labelled `label` (e.g. `weather.isNice[10001]`).
    public func stateID(labelled label: String) -> NodeID? { contents.labelIndex[label] }

    /// Decodes turn `sequence` with its idle events.
    /// - Throws: `TraceReadError` naming the line if its record is malformed.
    public func turn(_ sequence: TurnNumber) throws(TraceReadError) -> TraceTurn {
        guard let index = entryIndex(of: sequence) else {
            throw TraceReadError(line: 0, message: "no turn \(sequence) in this trace")
        }
        return try decodeTurn(turnEntries[index])
    }

    /// The position of turn `sequence` among the file's turns, if it is there.
    package func entryIndex(of sequence: TurnNumber) -> Int? {
        var low = 0
        var high = turnEntries.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let found = turnEntries[middle].sequence
            if found == sequence { return middle }
            if found < sequence { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }

    /// The position of the first turn numbered `sequence` or later (the count when none is).
    package func firstEntryIndex(atOrAfter sequence: TurnNumber) -> Int {
        var low = 0
        var high = turnEntries.count
        while low < high {
            let middle = (low + high) / 2
            if turnEntries[middle].sequence < sequence { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Turn `sequence`'s name, origin and cause, read without decoding its events.
    /// - Throws: `TraceReadError` when its record lacks them or is malformed.
    package func turnHeading(_ sequence: TurnNumber) throws(TraceReadError) -> TurnHeading {
        guard let index = entryIndex(of: sequence) else {
            throw TraceReadError(line: 0, message: "no turn \(sequence) in this trace")
        }
        return try Self.heading(of: turnEntries[index], in: bytes)
    }

    /// The headings of the turns `sequences`, in order (nil for one whose record cannot say),
    /// read on every core when there are many: an answer that names the turn of every row.
    package func turnHeadings(_ sequences: [TurnNumber]) -> [TurnHeading?] {
        readingHeadings(sequences).map { try? $0.get() }
    }

    /// The headings of the turns `sequences`, in order, each or why its record cannot say, read
    /// on every core when there are many: a search over every turn's name warns of the turns it
    /// could not read.
    /// Many turns are read a batch at a time, with a progress report and a look for Ctrl-C
    /// between batches; the turns an interrupt left unread come back as `TraceFile.cancelled`.
    package func readingHeadings(_ sequences: [TurnNumber]) -> [Result<TurnHeading, TraceReadError>] {
        let entries = sequences.map { entryIndex(of: $0).map { turnEntries[$0] } }
        let bytes = bytes
        var headings: [Result<TurnHeading, TraceReadError>] = []
        headings.reserveCapacity(sequences.count)
        var start = 0
        while start < sequences.count {
            if start > 0 {
                reportProgress(TraceProgress(task: "reading turn names", completed: start, total: sequences.count))
                if isCancelled() { break }
            }
            let end = min(start + TraceEventIndex.batchSize, sequences.count)
            headings += ParallelShares.flatMap(start..<end, serialBelow: 256) { share in
                zip(sequences[share], entries[share]).map { sequence, entry in
                    guard let entry else {
                        return .failure(TraceReadError(line: 0, message: "no turn \(sequence) in this trace"))
                    }
                    return Result { () throws(TraceReadError) in try Self.heading(of: entry, in: bytes) }
                }
            }
            start = end
        }
        headings += repeatElement(.failure(TraceFile.cancelled), count: sequences.count - headings.count)
        return headings
    }

    private static func heading(of entry: TurnEntry, in bytes: TraceBytes) throws(TraceReadError) -> TurnHeading {
        // Turns lie one after another with their idle records: together they are the span read.
        bytes.noteRead(entry.range.count + (entry.idle?.range.count ?? 0))
        let heading = try bytes.withUnsafeBufferPointer { buffer throws(TraceReadError) -> TurnHeading? in
            var scanner = EventScanner(bytes: buffer, range: entry.range)
            var events: [EventScanner.Event] = []
            var members: [Range<Int>?] = []
            guard scanner.events(into: &events, capturing: Self.headingMembers, members: &members) else { return nil }
            return try Self.heading(members: members, line: entry.line, bytes: buffer).heading
        }
        if let heading { return heading }
        let turn = try decodeTurn(entry, in: bytes)
        return TurnHeading(name: turn.name, origin: turn.origin, cause: turn.cause)
    }

    func decodeTurn(_ entry: TurnEntry) throws(TraceReadError) -> TraceTurn {
        try Self.decodeTurn(entry, in: bytes)
    }

    static func decodeTurn(_ entry: TurnEntry, in bytes: TraceBytes) throws(TraceReadError) -> TraceTurn {
        bytes.noteRead(entry.range.count + (entry.idle?.range.count ?? 0))
        let record = try TraceScanner.parseLine(bytes[entry.range], line: entry.line)
        var turn = try TraceScanner.decodeTurn(record, line: entry.line)
        if let idle = entry.idle {
            let idleRecord = try TraceScanner.parseLine(bytes[idle.range], line: idle.line)
            turn.after = try TraceScanner.decodeEvents(idleRecord, line: idle.line)
        }
        return turn
    }

    /// How many turns are decoded together, on every core, before they are used in order.
    static let decodeBatchSize = 4_096

    /// The turns at `positions`, decoded on all cores at once, in order.
    func decodeBatch(_ positions: Range<Int>) -> [Result<TraceTurn, TraceReadError>] {
        let entries = turnEntries
        let bytes = bytes
        return ParallelShares.map(positions) { share in
            share.map { index in
                Result { () throws(TraceReadError) in try Self.decodeTurn(entries[index], in: bytes) }
            }
        }.flatMap { $0 }
    }

    /// The graph just after turn `sequence` and what happened before the next turn; with
    /// `sequence` before the first turn, the graph the trace starts from.
    /// - Throws: `TraceReadError` if a turn on the way is malformed.
    public func snapshot(after sequence: TurnNumber) throws(TraceReadError) -> GraphSnapshot {
        if let cached = snapshotCache[sequence] { return cached }
        var walk = try walk(from: sequence)
        let snapshot = try walk.advance(through: sequence)
        if snapshotCache.count >= snapshotCacheCapacity { snapshotCache.removeAll() }
        snapshotCache[sequence] = snapshot
        return snapshot
    }
}
