package import CogTraceFormat
import Foundation

/// One event as a scan saw it: where it is, its kind and the ids it names, and, when the scan
/// was asked to decode (or had to decode its record whole), the event itself.
package struct ScannedEvent {
    /// True for an event of the idle record after the turn.
    package let isIdle: Bool
    /// Its place in its record's events, from 0.
    package let position: Int
    /// Its kind as the record spells it (`recompute`).
    package let kind: String
    /// The ids it names: `s`, `r` and `p`.
    package let state: NodeID?
    package let registration: NodeID?
    package let producer: NodeID?
    fileprivate let range: Range<Int>
    fileprivate let line: Int
    fileprivate let decoded: TraceEvent?
}

/// One turn as a scan saw it: how many events it holds and the events asked for, located; its
/// name, origin, cause and times are read when asked (`TraceFile.heading(of:)`).
package struct ScannedTurn {
    package let sequence: TurnNumber
    /// How many events the turn's own record holds (its idle record's not counted).
    package let eventCount: Int
    /// The events of the kinds asked for, in order (idle events after the turn's).
    package let events: [ScannedEvent]
    fileprivate let line: Int
    /// The bytes of `name`, `origin`, `cause`, `start` and `duration`, when the scan read them.
    fileprivate let headingMembers: [Range<Int>?]
    /// The heading, when the record was decoded whole.
    fileprivate let decodedHeading: (heading: TurnHeading, start: Int, duration: Int)?
}

extension TraceFile {
    /// A scanned turn's name, origin, cause, start and duration.
    /// - Throws: `TraceReadError` naming the line when the record lacks them or they are malformed.
    package func heading(
        of turn: ScannedTurn
    ) throws(TraceReadError) -> (heading: TurnHeading, start: Int, duration: Int) {
        if let decoded = turn.decodedHeading { return decoded }
        return try bytes.withUnsafeBufferPointer { buffer throws(TraceReadError) in
            try Self.heading(members: turn.headingMembers, line: turn.line, bytes: buffer)
        }
    }

    /// The top-level members a turn's heading is read from, in the order `heading(members:)` takes.
    static let headingMembers: [StaticString] = ["name", "origin", "cause", "start", "duration"]

    /// The heading from the bytes of its members (`headingMembers`, as a scan captured them).
    static func heading(
        members: [Range<Int>?], line: Int, bytes: UnsafeBufferPointer<UInt8>
    ) throws(TraceReadError) -> (heading: TurnHeading, start: Int, duration: Int) {
        let turn = (headingMembers: members, line: line)
        func value(_ slot: Int) throws(TraceReadError) -> JSONValue? {
            guard slot < turn.headingMembers.count, let range = turn.headingMembers[slot] else { return nil }
            return try TraceScanner.parseLine(ArraySlice(UnsafeBufferPointer(rebasing: bytes[range])), line: turn.line)
        }
        guard let name = try value(0)?.stringValue, let origin = try value(1)?.stringValue else {
            throw TraceReadError(line: turn.line, message: "turn record needs 'seq', 'name' and 'origin'")
        }
        let start = try value(3)?.intValue ?? 0
        let duration = try value(4)?.intValue ?? 0
        for (member, number) in [("start", start), ("duration", duration)]
        where !TraceScanner.validCounts.contains(number) {
            throw TraceReadError(line: turn.line, message: "turn '\(member)' \(number) is outside 0..<2^53")
        }
        let heading = TurnHeading(name: name, origin: TurnOrigin(rawValue: origin), cause: try value(2)?.turnNumber)
        return (heading, start, duration)
    }

    /// A scanned event, decoded: nil for a kind this reader does not know.
    /// - Throws: `TraceReadError` naming the line and the event when it is malformed.
    package func event(_ event: ScannedEvent) throws(TraceReadError) -> TraceEvent? {
        if let decoded = event.decoded { return decoded }
        let value = try TraceScanner.parseLine(bytes[event.range], line: event.line)
        return try TraceScanner.decodeEvent(value, index: event.position, line: event.line)
    }
}

/// Turns in order, scanned on all cores a batch at a time, locating the events whose kind is in
/// `kinds` (every kind when nil) and, when asked, decoding them and each turn's heading there
/// too: what `sql` reads
/// a table from without decoding the rest. Pull-based, so a SQLite cursor can take one turn at
/// a time.
package struct TurnScanIterator: IteratorProtocol {
    private let trace: TraceFile
    private let kinds: Set<String>?
    private let decodes: Bool
    private let decodesHeadings: Bool
    private var batch: [Result<ScannedTurn, TraceReadError>] = []
    private var positionInBatch = 0
    private var nextEntry = 0
    private var wasCancelled = false

    /// - Parameters:
    ///   - decodes: decode the events found, on all cores, as they are scanned.
    ///   - decodesHeadings: decode each turn's heading there too.
    package init(trace: TraceFile, kinds: Set<String>?, decodes: Bool, decodesHeadings: Bool = false) {
        self.trace = trace
        self.kinds = kinds
        self.decodes = decodes
        self.decodesHeadings = decodesHeadings
    }

    /// The next turn, or the error its record gave; `TraceFile.cancelled` once when the
    /// cancellation check stopped the scan, then nil.
    package mutating func next() -> Result<ScannedTurn, TraceReadError>? {
        if positionInBatch == batch.count {
            guard !wasCancelled, nextEntry < trace.turnEntries.count else { return nil }
            if trace.isCancelled() {
                wasCancelled = true
                return .failure(TraceFile.cancelled)
            }
            let end = min(nextEntry + TraceFile.decodeBatchSize * 4, trace.turnEntries.count)
            batch = trace.scanBatch(nextEntry..<end, kinds: kinds, decodes: decodes, decodesHeadings: decodesHeadings)
            positionInBatch = 0
            nextEntry = end
            trace.reportProgress(TraceProgress(task: "reading turns", completed: end, total: trace.turnEntries.count))
        }
        positionInBatch += 1
        return batch[positionInBatch - 1]
    }
}

extension TraceFile {
    fileprivate func scanBatch(
        _ positions: Range<Int>, kinds: Set<String>?, decodes: Bool, decodesHeadings: Bool
    ) -> [Result<ScannedTurn, TraceReadError>] {
        let entries = turnEntries
        let bytes = bytes
        return ParallelShares.map(positions) { share in
            var scan = TurnScan(kinds: kinds, decodes: decodes, decodesHeadings: decodesHeadings)
            return bytes.withUnsafeBufferPointer { pointer in
                share.map { index in
                    Result { () throws(TraceReadError) in try scan.turn(entries[index], bytes: pointer, array: bytes) }
                }
            }
        }.flatMap { $0 }
    }
}

/// One worker's scanning state: its kind table and which codes are wanted.
private struct TurnScan {
    let kinds: Set<String>?
    let decodes: Bool
    let decodesHeadings: Bool
    var table = EventKindTable()
    var wanted: [Bool] = [false]
    var found: [EventScanner.Event] = []
    var members: [Range<Int>?] = []

    init(kinds: Set<String>?, decodes: Bool, decodesHeadings: Bool) {
        self.kinds = kinds
        self.decodes = decodes
        self.decodesHeadings = decodesHeadings
    }

    mutating func turn(
        _ entry: TraceFile.TurnEntry, bytes: UnsafeBufferPointer<UInt8>, array: TraceBytes
    ) throws(TraceReadError) -> ScannedTurn {
        array.noteRead(entry.range.count + (entry.idle?.range.count ?? 0))
        var scanner = EventScanner(bytes: bytes, range: entry.range)
        guard scanner.events(into: &found, capturing: TraceFile.headingMembers, members: &members) else {
            return try decoded(entry, array: array)
        }
        let eventCount = found.count
        let headingMembers = members
        var events = try wantedEvents(isIdle: false, line: entry.line, bytes: bytes)
        if let idle = entry.idle {
            var idleScanner = EventScanner(bytes: bytes, range: idle.range)
            guard idleScanner.events(into: &found) else { return try decoded(entry, array: array) }
            events += try wantedEvents(isIdle: true, line: idle.line, bytes: bytes)
        }
        return ScannedTurn(
            sequence: entry.sequence, eventCount: eventCount, events: events, line: entry.line,
            headingMembers: headingMembers,
            decodedHeading: decodesHeadings
                ? try TraceFile.heading(members: headingMembers, line: entry.line, bytes: bytes) : nil)
    }

    private mutating func wantedEvents(
        isIdle: Bool, line: Int, bytes: UnsafeBufferPointer<UInt8>
    ) throws(TraceReadError) -> [ScannedEvent] {
        var events: [ScannedEvent] = []
        for event in found {
            let code = table.code(of: event.kind, in: bytes)
            if code >= wanted.count { wanted.append(kinds?.contains(table.name(code)) ?? true) }
            guard code > 0 ? wanted[code] : kinds == nil else { continue }
            var decoded: TraceEvent?
            if decodes {
                let value = try TraceScanner.parseLine(
                    ArraySlice(UnsafeBufferPointer(rebasing: bytes[event.range])), line: line)
                // A kind this reader does not know is left out, as the decoder leaves it out.
                guard let known = try TraceScanner.decodeEvent(value, index: event.position, line: line) else {
                    continue
                }
                decoded = known
            }
            events.append(
                ScannedEvent(
                    isIdle: isIdle, position: event.position, kind: table.name(code), state: event.state,
                    registration: event.registration, producer: event.producer, range: event.range, line: line,
                    decoded: decoded))
        }
        return events
    }

    /// A record the scan cannot read, decoded the ordinary way.
    private func decoded(_ entry: TraceFile.TurnEntry, array: TraceBytes) throws(TraceReadError) -> ScannedTurn {
        let turn = try TraceFile.decodeTurn(entry, in: array)
        var events: [ScannedEvent] = []
        for (isIdle, list) in [(false, turn.events), (true, turn.after)] {
            for (position, event) in list.enumerated() where kinds?.contains(event.kind) ?? true {
                events.append(
                    ScannedEvent(
                        isIdle: isIdle, position: position, kind: event.kind, state: event.state,
                        registration: event.registration, producer: event.edgeProducer, range: 0..<0, line: entry.line,
                        decoded: event))
            }
        }
        return ScannedTurn(
            sequence: turn.sequence, eventCount: turn.events.count, events: events, line: entry.line,
            headingMembers: [],
            decodedHeading: (
                TurnHeading(name: turn.name, origin: turn.origin, cause: turn.cause), turn.start, turn.duration
            ))
    }
}

extension TraceFile {
    /// What a backward search found.
    package enum BackwardSearch {
        /// The newest event at or before the start that `matches` accepted, decoded, with its
        /// turn.
        case found(turn: TurnNumber, event: ScannedEvent, decoded: TraceEvent)
        /// No event matched, back to the first turn.
        case none
        /// The search gave up after `maxTurns` turns without a match.
        case gaveUp
    }

    /// Walks back from the turn at position `start`, newest event first, through at most
    /// `maxTurns` turns, for the first event naming `state` (its `s`) that `matches` accepts:
    /// what answers about the newest change of a state find without indexing the whole trace.
    /// Turns scanned in batches that grow as the search goes further back, on all cores.
    /// - Parameters:
    ///   - undecodable: gets each turn on the way whose record could not be read.
    ///   - considers: says from an event's turn, kind and place, before it is decoded, whether
    ///     `matches` should see it at all (an event later in the start turn than the question,
    ///     a kind the question never asks about).
    package func searchBack(
        from start: Int, state: NodeID, maxTurns: Int, undecodable: (TurnNumber, TraceReadError) -> Void,
        considers: (TurnNumber, ScannedEvent) -> Bool = { _, _ in true }, matches: (TraceEvent) -> Bool
    ) -> BackwardSearch {
        var upper = min(start + 1, turnEntries.count)
        var size = 256
        while upper > 0 {
            if upper <= start + 1 - maxTurns || isCancelled() { return .gaveUp }
            let lower = max(0, upper - size)
            let batch = scanBatch(lower..<upper, kinds: nil, decodes: false, decodesHeadings: false)
            for (offset, result) in batch.enumerated().reversed() {
                let turn: ScannedTurn
                switch result {
                case .success(let scanned): turn = scanned
                case .failure(let error):
                    undecodable(turnEntries[lower + offset].sequence, error)
                    continue
                }
                for scanned in turn.events.reversed() where scanned.state == state {
                    guard considers(turn.sequence, scanned) else { continue }
                    do {
                        guard let event = try event(scanned), matches(event) else { continue }
                        return .found(turn: turn.sequence, event: scanned, decoded: event)
                    } catch {
                        undecodable(turn.sequence, error)
                    }
                }
            }
            upper = lower
            size = min(size * 4, Self.decodeBatchSize * 4)
        }
        return .none
    }
}
