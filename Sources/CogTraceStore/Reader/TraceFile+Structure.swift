public import CogTraceFormat

/// Damage to a trace's structure that reading it tolerates but an answer must not hide: a
/// record that names a state no record declares, a cause that is not an earlier turn, a
/// recompute said to be caused by something that is not a state, an idle record out of place, a
/// turn that cannot be decoded. Each names the line where it shows, and the turn from which
/// answers are touched by it.
public struct StructuralIssue: Sendable, Equatable {
    /// The line where the damage shows.
    public let line: Int
    /// The turn from which an answer reads the damaged record (0: before the first turn).
    public let turn: TurnNumber
    /// What is wrong, in a sentence without its line.
    public let message: String
}

/// What a check of every record found: its issues in line order, and the turns that could not
/// be decoded (whatever made them so).
public struct StructureCheck: Sendable {
    /// The structural issues, in line order.
    public let issues: [StructuralIssue]
    /// The turns whose records could not be decoded, with why.
    public let undecodable: [(turn: TurnNumber, error: TraceReadError)]
    /// How many bytes of the file the check read.
    let checkedBytes: Int
}

extension TraceFile {
    /// Every record checked (`StructureCheck`): each turn decoded on every core, its events'
    /// ids looked up, its cause and idle record placed. Done once and kept; nil when Ctrl-C
    /// stopped it.
    public func checkStructure() -> StructureCheck? {
        // A followed trace grows: what was checked covers the lines read then.
        if let structureCheck, structureCheck.checkedBytes == bytes.count { return structureCheck }
        let entries = turnEntries
        // Registrations are known from the keyframes and from the events read so far (a
        // batch's own first, since the runtime registers before it runs anything): the turns are
        // read a batch at a time and not kept, so an 8,000,000-turn trace is checked in the
        // memory of one batch.
        var registrations = Set<NodeID>()
        for keyframe in keyframes { registrations.formUnion(keyframe.snapshot.registrations.keys) }
        var issues: [StructuralIssue] = []
        var undecodable: [(turn: TurnNumber, error: TraceReadError)] = []
        var undeclared = Set<NodeID>()
        if let leading = leadingIdle {
            issues += idleIssues(leading, follows: nil, before: entries.first?.sequence)
        }
        var start = 0
        while start < entries.count {
            if isCancelled() { return nil }
            let end = min(start + Self.decodeBatchSize, entries.count)
            let decoded = decodeBatch(start..<end)
            for case .success(let turn) in decoded {
                for event in turn.events + turn.after {
                    if let registration = event.registration { registrations.insert(registration) }
                }
            }
            for (offset, result) in decoded.enumerated() {
                let entry = entries[start + offset]
                if let idle = entry.idle {
                    issues += idleIssues(idle, follows: entry.sequence, before: nil)
                }
                switch result {
                case .failure(let error):
                    undecodable.append((entry.sequence, error))
                    issues.append(
                        StructuralIssue(
                            line: error.line == 0 ? entry.line : error.line, turn: entry.sequence,
                            message: "turn \(entry.sequence) cannot be decoded: \(error.message)"))
                case .success(let turn):
                    issues += turnIssues(turn, entry: entry, registrations: registrations, undeclared: &undeclared)
                }
            }
            progress?(TraceProgress(task: Self.structureTask, completed: end, total: entries.count))
            start = end
        }
        let check = StructureCheck(
            issues: issues.sorted { $0.line < $1.line }, undecodable: undecodable, checkedBytes: bytes.count)
        structureCheck = check
        return check
    }

    /// What is wrong with `turn`'s cause and its events' ids.
    /// An undeclared id is said once, where it is first named (`undeclared` holds those said).
    private func turnIssues(
        _ turn: TraceTurn, entry: TurnEntry, registrations: Set<NodeID>, undeclared: inout Set<NodeID>
    ) -> [StructuralIssue] {
        var issues: [StructuralIssue] = []
        func issue(_ line: Int, _ message: String) {
            issues.append(StructuralIssue(line: line, turn: entry.sequence, message: message))
        }
        if let cause = turn.cause, cause >= turn.sequence {
            issue(
                entry.line,
                "turn \(turn.sequence) names turn \(cause) as its cause, which is not an earlier turn; its cause is unknown"
            )
        }
        let parts = [(turn.events, entry.line)] + (entry.idle.map { [(turn.after, $0.line)] } ?? [])
        for (events, line) in parts {
            for (position, event) in events.enumerated() {
                for id in Self.namedIDs(event) where states[id] == nil && !registrations.contains(id) {
                    guard undeclared.insert(id).inserted else { continue }
                    issue(
                        line,
                        "event \(position + 1) (\(event.kindName)) names #\(id), which no state record or "
                            + "registration declares (nor do later events that name it); a declaration is missing or "
                            + "the file was edited")
                }
                if let generation = Self.generation(of: event), generation < 1 {
                    issue(
                        line,
                        "event \(position + 1) (\(event.kindName)) names generation \(generation); generations "
                            + "count from 1, so its async answers are unknown")
                }
                if case .recompute(let state, _, _, _, let trigger?) = event, states[trigger] == nil,
                    registrations.contains(trigger) || undeclared.insert(trigger).inserted
                {
                    let what = registrations.contains(trigger) ? "a registration, not a state" : "not a declared state"
                    issue(
                        line,
                        "event \(position + 1) says a recompute of #\(state) was caused by #\(trigger), which is "
                            + "\(what); what caused it is unknown")
                }
            }
        }
        return issues
    }

    /// What a structure check reports its progress as.
    public static let structureTask = "checking the records"

    /// Whether an idle record stands where its `after` says: just after that turn, or before
    /// the first turn for one that follows none in this file.
    private func idleIssues(
        _ idle: (line: Int, range: Range<Int>), follows turn: TurnNumber?, before next: TurnNumber?
    ) -> [StructuralIssue] {
        guard let record = try? TraceScanner.parseLine(bytes[idle.range], line: idle.line),
            let after = record["after"]?.intValue
        else {
            return [
                StructuralIssue(
                    line: idle.line, turn: turn ?? 0, message: "an idle record without a turn number in 'after'")
            ]
        }
        if let turn, after != turn.rawValue {
            return [
                StructuralIssue(
                    line: idle.line, turn: turn,
                    message: "an idle record says it follows turn \(after) but stands after turn \(turn)")
            ]
        }
        if turn == nil, let next, after >= next.rawValue {
            return [
                StructuralIssue(
                    line: idle.line, turn: 0,
                    message: "an idle record says it follows turn \(after) but stands before turn \(next)")
            ]
        }
        return []
    }

    /// The generation an async event names, if one.
    static func generation(of event: TraceEvent) -> Int? {
        switch event {
        case .generationStarted(_, let generation, _), .generationCancelled(_, let generation),
            .generationAccepted(_, let generation, _), .generationRejected(_, let generation):
            generation
        case .refreshResolved(_, let generation, _): generation
        default: nil
        }
    }

    /// The state and registration ids an event names: its subject, an edge's producer, a
    /// dependency list's producers, an offer's subscriber.
    static func namedIDs(_ event: TraceEvent) -> [NodeID] {
        var ids = event.indexedSubjects
        switch event {
        case .dependencies(_, let producers): ids += producers
        case .offer(_, let subscriber, _): ids.append(subscriber)
        default: break
        }
        return ids
    }
}

extension TraceFile {
    /// Whether the trace is small enough that every answer checks its whole structure first; a
    /// bigger one is checked by `info`, and its answers warn once that ran.
    public var checksStructureWithEveryAnswer: Bool { bytes.count < Self.structureCheckedWithEveryAnswerBelow }

    /// The size below which every answer checks the structure: a decode of every turn costs
    /// about 150 ms per 8 MB in a release build on the 2-core CI machine.
    static let structureCheckedWithEveryAnswerBelow = 8 << 20

    /// Whether `info` checks the whole structure: a decode of every turn costs about 15 µs a
    /// turn in a release build on the 2-core CI machine, so a bigger trace is left to the
    /// answers' own reading.
    public var infoChecksStructure: Bool { bytes.count < Self.structureCheckedByInfoBelow }

    /// The size below which `info` checks the structure (about 130,000 turns of the synthetic trace).
    static let structureCheckedByInfoBelow = 64 << 20

    /// The file's size in bytes, as read.
    public var byteCount: Int { bytes.count }

    /// The structure check when it has run (nil until then).
    public var checkedStructure: StructureCheck? { structureCheck }
}
