package import CogTraceFormat
import Foundation

/// Every event of a trace's turns, located by the state or registration it is about (and, for
/// an edge, its producer too), without decoding them: built by `EventScanner` on all cores, it
/// keeps 16 bytes per event, and decodes an event only when an answer reads it. On a
/// million-turn trace that is a fraction of a second where decoding every turn took seconds.
package final class TraceEventIndex {
    /// Where one event is: its record, its place there and its bytes, from the record's start
    /// (or, for a record the scan handed to the decoder, its slot among the events decoded at
    /// build time). Sixteen bytes: a million-turn trace has millions of events, and every page
    /// of locations is memory the build asks the system for.
    package struct Location: Sendable {
        /// From the start of its record (the turn's, or the idle record's), or the slot.
        fileprivate let start: UInt32
        fileprivate let length: UInt32
        /// The record's position among the trace's turns.
        package let turnIndex: UInt32
        /// Position (low 24 bits), idle flag (bit 24) and kind code (high 7 bits).
        fileprivate let packed: UInt32

        /// Its place in its record's events.
        package var position: Int { Int(packed & 0xFF_FFFF) }
        /// True for an event between turns, in the idle record after the turn.
        package var isIdle: Bool { packed & (1 << 24) != 0 }
        /// The kind's code in the index's `kinds` table.
        fileprivate var kindCode: Int { Int(packed >> 25) }
        fileprivate var isPredecoded: Bool { length == .max }
    }

    /// The kinds of the events that name registrations, decoded at build time so their names
    /// and kinds are known without a lookup.
    package static let registrationKinds: Set<String> = ["registered", "scopeOpened", "taskStarted"]

    private let trace: TraceFile
    /// The subjects whose events are kept; nil for every subject. The other subjects' events are
    /// still scanned (for the registrations and the undecodable records, which stay complete) but
    /// not filed: a first `history` reads one subject, and filing every event was about a third
    /// of a full build.
    package let keptSubjects: [NodeID]?
    /// Every subject's events, in recording order: the batches merged since it was last read
    /// are kept as they came and joined when it is read. Copying every batch into one list as
    /// it was merged cost a fifth of the build, and an answer reads a few subjects.
    private var subjectLocations: [NodeID: SubjectLocations] = [:]
    /// The registration events, decoded, in recording order.
    package private(set) var registrationEvents: [(turnIndex: Int, event: TraceEvent)] = []
    /// Records that could not be decoded at all, with why, in order.
    package private(set) var undecodable: [(turnIndex: Int, error: TraceReadError)] = []
    /// Events of records the scan left to the decoder.
    private var predecoded: [TraceEvent] = []
    /// Kind names by code; code 0 is any kind past the table's 127.
    private var kinds: [String] = ["?"]
    /// How many turns the build has scanned so far.
    private var scannedTurns = 0
    /// The idle record of the last turn scanned, as it was scanned (a followed trace's idle
    /// record may arrive after its turn).
    private var scannedIdle: Range<Int>?

    /// Indexes `trace`; nil when its cancellation check stopped the build.
    ///
    /// With `reportsProgress: false` the build calls neither the trace's cancellation check nor
    /// its progress hook, and reads nothing of the trace but its bytes and turn positions (which
    /// change only when a followed trace grows, and its owner lets it grow only after such a
    /// build finished): that build may run on another thread while the trace's owner goes on.
    /// `batchSize` is how many turns are scanned together (a test makes it small, to merge many).
    /// With `subjects`, only those subjects' events are located (`keptSubjects`).
    /// With `turnLimit`, only the first that many turns are indexed; `extend(upTo:)` goes on
    /// (an answer that streams reads the start of the recording first).
    package init?(
        trace: TraceFile, only subjects: [NodeID]? = nil, reportsProgress: Bool = true,
        batchSize: Int = TraceEventIndex.batchSize, upTo turnLimit: Int? = nil
    ) {
        self.trace = trace
        keptSubjects = subjects
        let limit = min(turnLimit ?? trace.turnEntries.count, trace.turnEntries.count)
        var start = 0
        while start < limit {
            if reportsProgress, trace.cancellation?() == true { return nil }
            let end = min(start + max(batchSize, 1), limit)
            let parts = scan(start..<end)
            scannedTurns = end
            for part in parts { merge(part) }
            if reportsProgress {
                trace.reportProgress(
                    TraceProgress(task: "indexing events", completed: end, total: trace.turnEntries.count))
            }
            start = end
        }
        scannedIdle = scannedTurns > 0 ? trace.turnEntries[scannedTurns - 1].idle?.range : nil
    }

    /// How many of the trace's turns are indexed, from the first.
    package var indexedTurnCount: Int { scannedTurns }

    /// Adds the turns that arrived since the index was built (or last extended), and the idle
    /// events that arrived after the turn that was last: a followed trace's index grows with it
    /// instead of being built again.
    package func extend() { extend(upTo: trace.turnEntries.count) }

    /// Indexes the turns up to position `limit` (exclusive) that are not indexed yet.
    package func extend(upTo limit: Int) {
        if scannedTurns > 0, trace.turnEntries[scannedTurns - 1].idle?.range != scannedIdle {
            var part = Part(keeping: keptSubjects)
            let entries = trace.turnEntries
            let byteArray = trace.bytes
            byteArray.withUnsafeBufferPointer { bytes in
                Self.scanTurn(
                    scannedTurns - 1, of: entries, bytes: bytes, byteArray: byteArray, into: &part, idleOnly: true)
            }
            merge(part)
        }
        let end = min(limit, trace.turnEntries.count)
        var start = scannedTurns
        while start < end {
            let batchEnd = min(start + Self.batchSize, end)
            let parts = scan(start..<batchEnd)
            scannedTurns = batchEnd
            for part in parts { merge(part) }
            start = batchEnd
        }
        scannedIdle = scannedTurns > 0 ? trace.turnEntries[scannedTurns - 1].idle?.range : nil
    }

    /// An index of nothing, for a build that was stopped.
    package init(empty trace: TraceFile) {
        self.trace = trace
        keptSubjects = nil
    }

    /// Whether the index locates `subject`'s events.
    package func covers(_ subject: NodeID) -> Bool { keptSubjects?.contains(subject) ?? true }

    /// How many turns are scanned together, on every core, between cancellation checks.
    package static let batchSize = 32_768

    /// One subject's events: those joined so far, and the batches merged after them.
    private struct SubjectLocations {
        var joined: [Location] = []
        var batches: [[Location]] = []
    }

    /// Every subject the events name (by state, registration or producer).
    package var subjects: [NodeID] { Array(subjectLocations.keys) }

    /// The events of `subject` in recording order; nil when no event names it.
    package func locations(of subject: NodeID) -> [Location]? {
        guard var lists = subjectLocations.removeValue(forKey: subject) else { return nil }
        if !lists.batches.isEmpty {
            lists.joined.reserveCapacity(lists.joined.count + lists.batches.reduce(0) { $0 + $1.count })
            for batch in lists.batches { lists.joined.append(contentsOf: batch) }
            lists.batches = []
        }
        subjectLocations[subject] = lists
        return lists.joined
    }

    /// Every subject's events, in recording order.
    package var bySubject: [NodeID: [Location]] {
        Dictionary(uniqueKeysWithValues: subjects.map { ($0, locations(of: $0) ?? []) })
    }

    /// The turn of an event.
    package func turn(of location: Location) -> TurnNumber { trace.turnEntries[Int(location.turnIndex)].sequence }

    /// The kind of the event at `location`, without decoding it ("?" past the table's size).
    package func kind(of location: Location) -> String {
        location.isPredecoded ? predecoded[Int(location.start)].kind : kinds[location.kindCode]
    }

    /// Decodes the event at `location`: nil for a kind this reader does not know (a newer minor
    /// version writes kinds an older reader skips).
    /// - Throws: `TraceReadError` naming the line and the event when its record is malformed.
    package func event(at location: Location) throws(TraceReadError) -> TraceEvent? {
        if location.isPredecoded { return predecoded[Int(location.start)] }
        return try Self.decode(location, entries: trace.turnEntries, bytes: trace.bytes)
    }

    /// Decodes the events at `locations`, in order, on every core when there are enough of them
    /// to pay for it: what an answer that reads all of a subject's events (`history`) needs.
    package func events(at locations: ArraySlice<Location>) -> [Result<TraceEvent?, TraceReadError>] {
        let ordered = Array(locations)
        let entries = trace.turnEntries
        let bytes = trace.bytes
        var results = ParallelShares.flatMap(ordered.indices, serialBelow: 512) { share in
            Self.decode(ordered[share], entries: entries, bytes: bytes)
        }
        // Events the build decoded already are not the workers' to read.
        for (position, location) in ordered.enumerated() where location.isPredecoded {
            results[position] = .success(predecoded[Int(location.start)])
        }
        return results
    }

    /// Decodes the events at `locations` (those the build decoded already come back as nil, for
    /// the caller to fill).
    private static func decode(
        _ locations: ArraySlice<Location>, entries: [TraceFile.TurnEntry], bytes: TraceBytes
    ) -> [Result<TraceEvent?, TraceReadError>] {
        // Each event read faults in the page around it: the span of the file the share passes
        // over is what counts towards giving the pages back, or decoding a state's events from
        // one end of a 4 GB trace to the other leaves all of it resident.
        if let first = locations.first, let last = locations.last {
            let from = entries[Int(first.turnIndex)].range.lowerBound
            let through = entries[Int(last.turnIndex)]
            bytes.noteRead(max(0, (through.idle?.range.upperBound ?? through.range.upperBound) - from))
        }
        return locations.map { location in
            guard !location.isPredecoded else { return .success(nil) }
            return Result { () throws(TraceReadError) in try decode(location, entries: entries, bytes: bytes) }
        }
    }

    private static func decode(
        _ location: Location, entries: [TraceFile.TurnEntry], bytes: TraceBytes
    ) throws(TraceReadError) -> TraceEvent? {
        let entry = entries[Int(location.turnIndex)]
        let record = location.isIdle ? entry.idle ?? (entry.line, entry.range) : (line: entry.line, range: entry.range)
        let start = record.range.lowerBound + Int(location.start)
        let value = try TraceScanner.parseLine(bytes[start..<(start + Int(location.length))], line: record.line)
        return try TraceScanner.decodeEvent(value, index: location.position, line: record.line)
    }

    // MARK: Building

    /// What one worker found in its share of a batch.
    fileprivate struct Part {
        /// The subjects whose locations are filed; nil for all.
        let keptSubjects: [NodeID]?
        /// Every location found, with the subject it is filed under, in order: sorted into
        /// `dense` and `sparse` once the share is scanned, each list made at its final size:
        /// grown an event at a time, the lists' reallocations asked the system for a quarter
        /// more fresh pages (each a page fault) for the same instructions.
        var filed: [(subject: NodeID, location: Location)] = []
        /// Subjects with small ids (most of them: the runtime numbers them densely), by id.
        var dense: [[Location]] = []
        /// The rest.
        var sparse: [NodeID: [Location]] = [:]
        var registrations: [(turnIndex: Int, event: TraceEvent)] = []
        var undecodable: [(turnIndex: Int, error: TraceReadError)] = []
        var predecoded: [TraceEvent] = []
        var kinds = EventKindTable()
        /// Whether each of `kinds` is one of `registrationKinds`.
        var namesRegistration: [Bool] = []
        /// Scratch buffers, reused from record to record.
        var turnEvents: [EventScanner.Event] = []
        var idleEvents: [EventScanner.Event] = []

        init(keeping subjects: [NodeID]?) {
            keptSubjects = subjects
        }
    }

    private func scan(_ positions: Range<Int>) -> [Part] {
        let entries = trace.turnEntries
        let byteArray = trace.bytes
        // Every worker starts from the kinds the index knows, so its codes are the index's and
        // merging its locations copies none of them to renumber.
        let known = Array(kinds.dropFirst())
        let kept = keptSubjects
        return ParallelShares.map(positions, sharesPerCore: 4) { share in
            var part = Part(keeping: kept)
            part.kinds = EventKindTable(seeding: known)
            byteArray.withUnsafeBufferPointer { bytes in
                for turnIndex in share {
                    Self.scanTurn(turnIndex, of: entries, bytes: bytes, byteArray: byteArray, into: &part)
                    let entry = entries[turnIndex]
                    byteArray.noteRead(entry.range.count + (entry.idle?.range.count ?? 0))
                }
            }
            part.fileAll()
            return part
        }
    }

    /// Indexes one turn's events and the idle events after it (with `idleOnly`, only those).
    private static func scanTurn(
        _ turnIndex: Int, of entries: [TraceFile.TurnEntry], bytes: UnsafeBufferPointer<UInt8>, byteArray: TraceBytes,
        into part: inout Part, idleOnly: Bool = false
    ) {
        let entry = entries[turnIndex]
        // A location holds offsets within its record in 32 bits (and `UInt32.max` as a length
        // means predecoded): a record too long for that is decoded whole.
        guard entry.range.count < UInt32.max, (entry.idle?.range.count ?? 0) < UInt32.max else {
            return decodeTurn(turnIndex, entry: entry, bytes: byteArray, into: &part, idleOnly: idleOnly)
        }
        if idleOnly {
            part.turnEvents.removeAll(keepingCapacity: true)
        } else {
            var turnScanner = EventScanner(bytes: bytes, range: entry.range)
            guard turnScanner.events(into: &part.turnEvents) else {
                return decodeTurn(turnIndex, entry: entry, bytes: byteArray, into: &part)
            }
        }
        part.idleEvents.removeAll(keepingCapacity: true)
        if let idle = entry.idle {
            var idleScanner = EventScanner(bytes: bytes, range: idle.range)
            guard idleScanner.events(into: &part.idleEvents) else {
                return decodeTurn(turnIndex, entry: entry, bytes: byteArray, into: &part, idleOnly: idleOnly)
            }
        }
        for isIdle in [false, true] {
            let recordStart = isIdle ? entry.idle?.range.lowerBound ?? 0 : entry.range.lowerBound
            for event in isIdle ? part.idleEvents : part.turnEvents {
                let code = kindCode(event.kind, bytes: bytes, in: &part)
                let location = Location(
                    start: UInt32(event.range.lowerBound - recordStart), length: UInt32(event.range.count),
                    turnIndex: UInt32(turnIndex),
                    packed: UInt32(event.position) | (isIdle ? 1 << 24 : 0) | UInt32(code) << 25)
                if let subject = event.subject { part.add(location, to: subject) }
                if let producer = event.producer { part.add(location, to: producer) }
                guard code > 0, part.namesRegistration[code - 1] else { continue }
                let line = isIdle ? entry.idle?.line ?? entry.line : entry.line
                let decoded = Result { () throws(TraceReadError) in
                    try decodeEvent(at: event.range, position: event.position, line: line, bytes: bytes)
                }
                if case .success(let registration?) = decoded { part.registrations.append((turnIndex, registration)) }
            }
        }
    }

    /// The worker-local code of a kind (from 1), noting whether it (and any code before it not
    /// noted yet, as a seeded table's are) names a registration.
    private static func kindCode(
        _ range: Range<Int>, bytes: UnsafeBufferPointer<UInt8>, in part: inout Part
    ) -> Int {
        let code = part.kinds.code(of: range, in: bytes)
        while code > part.namesRegistration.count {
            part.namesRegistration.append(registrationKinds.contains(part.kinds.name(part.namesRegistration.count + 1)))
        }
        return code
    }

    private static func decodeEvent(
        at range: Range<Int>, position: Int, line: Int, bytes: UnsafeBufferPointer<UInt8>
    ) throws(TraceReadError) -> TraceEvent? {
        let value = try TraceScanner.parseLine(ArraySlice(UnsafeBufferPointer(rebasing: bytes[range])), line: line)
        return try TraceScanner.decodeEvent(value, index: position, line: line)
    }

    /// A record the scan cannot read is decoded whole: its events are kept decoded, or the turn
    /// is undecodable, exactly as the decoder judges it.
    private static func decodeTurn(
        _ turnIndex: Int, entry: TraceFile.TurnEntry, bytes: TraceBytes, into part: inout Part, idleOnly: Bool = false
    ) {
        let turn: TraceTurn
        do {
            turn = try TraceFile.decodeTurn(entry, in: bytes)
        } catch {
            part.undecodable.append((turnIndex, error))
            return
        }
        for (isIdle, events) in [(false, idleOnly ? [] : turn.events), (true, turn.after)] {
            for (position, event) in events.enumerated() {
                let location = Location(
                    start: UInt32(part.predecoded.count), length: .max, turnIndex: UInt32(turnIndex),
                    packed: UInt32(position) | (isIdle ? 1 << 24 : 0))
                part.predecoded.append(event)
                for subject in event.indexedSubjects { part.add(location, to: subject) }
                if registrationKinds.contains(event.kind) { part.registrations.append((turnIndex, event)) }
            }
        }
    }

    /// Adds one worker's part, in order: its kind codes and predecoded slots renumbered into the
    /// index's own.
    private func merge(_ part: consuming Part) {
        part.fileAll()
        let codes =
            [0]
            + part.kinds.names.map { name in
                let text = String(decoding: name, as: UTF8.self)
                if let found = kinds.firstIndex(of: text) { return found }
                guard kinds.count < 128 else { return 0 }
                kinds.append(text)
                return kinds.count - 1
            }
        let predecodedBase = predecoded.count
        predecoded += part.predecoded
        let renumbers = predecodedBase > 0 || codes.enumerated().contains { $0.offset != $0.element }
        let subjects =
            part.dense.indices.lazy.filter { !part.dense[$0].isEmpty }.map { (NodeID($0), part.dense[$0]) }
            + part.sparse.map { ($0.key, $0.value) }
        for (subject, locations) in subjects {
            let renumbered =
                renumbers
                ? locations.map { location in
                    Location(
                        start: location.isPredecoded ? location.start + UInt32(predecodedBase) : location.start,
                        length: location.length, turnIndex: location.turnIndex,
                        packed: location.packed & 0x1FF_FFFF | UInt32(codes[location.kindCode]) << 25)
                } : locations
            var lists = subjectLocations.removeValue(forKey: subject) ?? SubjectLocations()
            lists.batches.append(renumbered)
            subjectLocations[subject] = lists
        }
        registrationEvents += part.registrations
        undecodable += part.undecodable
    }
}

extension TraceEventIndex.Part {
    /// The largest id kept in the dense table.
    private static let denseLimit = 1 << 16

    mutating func add(_ location: TraceEventIndex.Location, to subject: NodeID) {
        if let keptSubjects, !keptSubjects.contains(subject) { return }
        filed.append((subject, location))
    }

    /// Sorts `filed` into the per-subject lists, keeping each subject's order: counted, placed
    /// in one buffer by subject, then copied out a subject at a time.
    mutating func fileAll() {
        guard !filed.isEmpty else { return }
        var starts: [Int] = []
        for entry in filed {
            let id = entry.subject.rawValue
            guard id >= 0, id < Self.denseLimit else { continue }
            if id >= starts.count { starts += repeatElement(0, count: id + 1 - starts.count) }
            starts[id] += 1
        }
        var total = 0
        for id in starts.indices {
            let count = starts[id]
            starts[id] = total
            total += count
        }
        var ends = starts
        let sorted = [TraceEventIndex.Location](unsafeUninitializedCapacity: total) { buffer, initialized in
            for (subject, location) in filed {
                let id = subject.rawValue
                guard id >= 0, id < Self.denseLimit else { continue }
                buffer.initializeElement(at: ends[id], to: location)
                ends[id] += 1
            }
            initialized = total
        }
        if starts.count > dense.count { dense += repeatElement([], count: starts.count - dense.count) }
        for id in starts.indices where ends[id] > starts[id] {
            dense[id] += sorted[starts[id]..<ends[id]]
        }
        for (subject, location) in filed {
            let id = subject.rawValue
            if id < 0 || id >= Self.denseLimit { sparse[subject, default: []].append(location) }
        }
        filed = []
    }
}
