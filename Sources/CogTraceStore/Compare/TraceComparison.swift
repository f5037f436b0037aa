public import CogTraceFormat

/// Two recordings compared step by step: each turn, then the work after it (`N+`), aligned by
/// position from a starting turn. Every event kind is compared, with states and registrations
/// named by label, so ids that differ between runs are no difference. `coginspect`'s
/// `diff --trace` and replay verification (`weather replay`) both stand on this one comparison.
public struct TraceComparison: Equatable {
    /// How many turn pairs were compared (each with the work after it).
    public let turnsCompared: Int
    /// Every step that differs, in order; the first is where the recordings part ways.
    public let differences: [TraceDifference]

    /// The first step where the recordings differ, or nil when they agree.
    public var firstDivergence: TraceDifference? { differences.first }

    /// Whether nothing differs.
    public var agrees: Bool { differences.isEmpty }

    /// Compares `trace` with `other`, pairing their turns in order from turn `from` in each (from
    /// the first turn when nil).
    /// - Throws: `TraceReadError` when a turn of either file cannot be decoded, or
    ///   `TraceFile.cancelled` when either file's cancellation check asked to stop.
    public init(_ trace: TraceFile, _ other: TraceFile, from start: TurnNumber? = nil) throws(TraceReadError) {
        let left = trace.turnSequences.filter { $0 >= start ?? TurnNumber(Int.min) }
        let right = other.turnSequences.filter { $0 >= start ?? TurnNumber(Int.min) }
        var leftNames = try RegistrationNames(trace, before: left.first)
        var rightNames = try RegistrationNames(other, before: right.first)
        var differences: [TraceDifference] = []
        for index in 0..<max(left.count, right.count) {
            // Ctrl-C in the inspector: `trace`'s cancellation check is asked every few hundred turns.
            if index % 256 == 255, trace.isCancelled() || other.isCancelled() { throw TraceFile.cancelled }
            guard index < left.count, index < right.count else {
                let (present, missing) = index < left.count ? ("this", "the other") : ("the other", "this")
                let count = index < left.count ? right.count : left.count
                let line = "\(missing) recording ends after \(count) turns; \(present) goes on"
                differences.append(
                    TraceDifference(
                        position: index, turn: index < left.count ? left[index] : nil,
                        otherTurn: index < right.count ? right[index] : nil, afterTurn: false,
                        aspects: [.turnCount], lines: [line]))
                break
            }
            let mine = try trace.turn(left[index])
            let theirs = try other.turn(right[index])
            // Names first: a registration and its first edge can come in the same turn.
            leftNames.note(mine)
            rightNames.note(theirs)
            let steps: [(afterTurn: Bool, StepFingerprint, StepFingerprint)] = [
                (
                    false,
                    StepFingerprint(
                        name: mine.name, origin: mine.origin.rawValue, events: mine.events,
                        labels: leftNames.labeller(trace)),
                    StepFingerprint(
                        name: theirs.name, origin: theirs.origin.rawValue, events: theirs.events,
                        labels: rightNames.labeller(other))
                ),
                (
                    true,
                    // The turn's name is compared once, with the turn.
                    StepFingerprint(
                        name: "", events: mine.after, failures: trace.failures(after: mine.sequence),
                        labels: leftNames.labeller(trace)),
                    StepFingerprint(
                        name: "", events: theirs.after, failures: other.failures(after: theirs.sequence),
                        labels: rightNames.labeller(other))
                ),
            ]
            for (afterTurn, here, there) in steps {
                let found = here.differences(from: there)
                guard !found.isEmpty else { continue }
                differences.append(
                    TraceDifference(
                        position: index, turn: mine.sequence, otherTurn: theirs.sequence, afterTurn: afterTurn,
                        aspects: found.map(\.aspect), lines: found.flatMap(\.lines)))
            }
        }
        turnsCompared = min(left.count, right.count)
        self.differences = differences
    }
}

extension TraceFile {
    /// The failures recorded after turn `turn` and before the next.
    func failures(after turn: TurnNumber) -> [TraceFailure] {
        failures.filter { $0.after == turn }
    }
}

/// Names for registration ids, gathered as turns are read, so what reactions, watches and
/// scopes do compares by name across recordings.
struct RegistrationNames {
    private var names: [NodeID: String] = [:]

    /// The names of the registrations live before turn `first`.
    init(_ trace: TraceFile, before first: TurnNumber?) throws(TraceReadError) {
        let start = (first ?? trace.turnSequences.first ?? 1) - 1
        for registration in try trace.snapshot(after: start).registrations.values {
            names[registration.id] = registration.name
        }
    }

    mutating func note(_ turn: TraceTurn) {
        for event in turn.events + turn.after {
            switch event {
            case .registered(let id, let name, _), .scopeOpened(let id, let name, _), .taskStarted(let id, let name):
                names[id] = name
            default: break
            }
        }
    }

    /// A state's label, a registration's name, or `#id` for an id the trace never named.
    func labeller(_ trace: TraceFile) -> (NodeID) -> String {
        let names = names
        return { id in trace.states[id]?.label ?? names[id] ?? "#\(id)" }
    }
}
