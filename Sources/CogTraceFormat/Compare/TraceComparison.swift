/// Two recordings compared turn by turn: aligned by position from a starting turn, each pair of
/// turns checked for the same name, writes, recomputed values, edge changes and async steps.
/// `coginspect`'s `diff --trace` and replay verification both stand on this.
public struct TraceComparison: Equatable {
    /// How many turn pairs were compared.
    public let turnsCompared: Int
    /// Every pair that differs, in order; the first is where the recordings part ways.
    public let differences: [TraceDifference]

    /// The first turn where the recordings differ, or nil when they agree.
    public var firstDivergence: TraceDifference? { differences.first }

    /// Compares `trace` with `other`, pairing their turns in order from turn `from` in each (from
    /// the first turn when nil). States are matched by label, so the two runs may number them apart.
    /// - Throws: `TraceReadError` when a turn of either file cannot be decoded.
    public init(_ trace: TraceFile, _ other: TraceFile, from start: TurnNumber? = nil) throws(TraceReadError) {
        let left = trace.turnSequences.filter { $0 >= start ?? TurnNumber(Int.min) }
        let right = other.turnSequences.filter { $0 >= start ?? TurnNumber(Int.min) }
        var leftNames = try RegistrationNames(trace)
        var rightNames = try RegistrationNames(other)
        var differences: [TraceDifference] = []
        for index in 0..<max(left.count, right.count) {
            guard index < left.count, index < right.count else {
                let (present, missing) = index < left.count ? ("this", "the other") : ("the other", "this")
                let count = index < left.count ? right.count : left.count
                differences.append(
                    TraceDifference(
                        position: index, turn: index < left.count ? left[index] : nil,
                        otherTurn: index < right.count ? right[index] : nil, aspect: .turnCount,
                        detail: "\(missing) recording ends after \(count) turns; \(present) goes on"))
                break
            }
            let mine = try trace.turn(left[index])
            let theirs = try other.turn(right[index])
            let mineFingerprint = TurnFingerprint(mine, labels: { leftNames.label($0, trace: trace) })
            let theirFingerprint = TurnFingerprint(theirs, labels: { rightNames.label($0, trace: other) })
            leftNames.note(mine)
            rightNames.note(theirs)
            if let (aspect, detail) = mineFingerprint.firstDifference(from: theirFingerprint) {
                differences.append(
                    TraceDifference(
                        position: index, turn: mine.sequence, otherTurn: theirs.sequence,
                        aspect: aspect, detail: detail))
            }
        }
        turnsCompared = min(left.count, right.count)
        self.differences = differences
    }
}

/// One pair of turns that differ, and how.
public struct TraceDifference: Equatable, Sendable {
    /// What differs first in the pair.
    public enum Aspect: String, Sendable {
        case turnName = "turn name"
        case writes, recomputes, edges, async
        case turnCount = "turn count"
    }

    /// The pair's position from the starting turn, from 0.
    public let position: Int
    /// The turn's number in the first recording; nil when that recording has ended.
    public let turn: TurnNumber?
    /// The turn's number in the second recording; nil when that recording has ended.
    public let otherTurn: TurnNumber?
    public let aspect: Aspect
    /// What differs, in a sentence: "this" is the first recording, "the other" the second.
    public let detail: String
}

/// Names for registration ids, gathered as turns are read, so edges from reactions and watches
/// compare by name across recordings.
private struct RegistrationNames {
    private var names: [NodeID: String] = [:]

    init(_ trace: TraceFile) throws(TraceReadError) {
        let start = (trace.turnSequences.first ?? 1) - 1
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

    func label(_ id: NodeID, trace: TraceFile) -> String {
        trace.states[id]?.label ?? names[id] ?? "#\(id)"
    }
}
