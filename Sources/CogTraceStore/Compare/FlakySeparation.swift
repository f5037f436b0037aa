public import CogTraceFormat

/// Several recordings of one test, some failing and some passing, compared step by step (each
/// turn, then the work after it, paired by position as `TraceComparison` pairs two): the
/// earliest step at which every failing run differs from every passing run, and what set them
/// apart there. A flaky test's race shows as the first step whose async outcomes, in their
/// order, no passing run shares. The failures themselves are left out of the comparison: they
/// are what is being explained.
public struct FlakySeparation: Equatable, Sendable {
    /// What one failing run did at the separating step that no passing run did.
    public struct RunDetail: Equatable, Sendable {
        /// The run, as its recording was named.
        public let run: String
        /// Its sentences there that no passing run has.
        public let sentences: [String]
    }

    /// The failing runs' names, in the order given.
    public let failing: [String]
    /// The passing runs' names, in the order given.
    public let passing: [String]
    /// How many steps (turns, with the work after each) were compared.
    public let positionsCompared: Int
    /// The separating step's position from the first turn (0-based); nil when no step before
    /// the failures separates the runs.
    public let position: Int?
    /// Whether the separating step is the work after a turn (`N+`).
    public let afterTurn: Bool
    /// The separating turn's number in the first failing run (nil when it had ended there).
    public let turn: TurnNumber?
    /// The turn's name there, in the first failing run.
    public let turnName: String?
    /// What every failing run did there and no passing run did.
    public let onlyInFailing: [String]
    /// What every passing run did there and no failing run did.
    public let onlyInPassing: [String]
    /// When the failing runs share nothing that no passing run has: each one's own sentences.
    public let perFailingRun: [RunDetail]

    /// `turn 5`, `turn 5+`, or `after the last turn`.
    public var place: String? {
        guard position != nil else { return nil }
        return turn.map { "turn \($0)\(afterTurn ? "+" : "")" } ?? "after the last turn"
    }

    /// Compares `runs` (named recordings; a run failed when its trace holds a failure).
    /// - Throws: `FlakyRefusal`: without at least one failing and one passing run, when a turn
    ///   cannot be decoded, or on Ctrl-C.
    public init(_ runs: [(name: String, trace: TraceFile)]) throws(FlakyRefusal) {
        let failingRuns = runs.filter { !$0.trace.failures.isEmpty }
        let passingRuns = runs.filter { $0.trace.failures.isEmpty }
        guard !failingRuns.isEmpty, !passingRuns.isEmpty else {
            throw .needsBoth(failing: failingRuns.count, passing: passingRuns.count)
        }
        failing = failingRuns.map(\.name)
        passing = passingRuns.map(\.name)
        var walkers: [RunWalker]
        do throws(TraceReadError) {
            walkers = try (failingRuns + passingRuns).map { run throws(TraceReadError) in try RunWalker(run.trace) }
        } catch {
            throw .unreadable(error)
        }
        let failingCount = failingRuns.count
        var position = 0
        while walkers.contains(where: { !$0.hasEnded(at: position) }) {
            if position % 64 == 63, runs.contains(where: { $0.trace.isCancelled() }) { throw .cancelled }
            let steps: [[StepFingerprint?]]
            do throws(TraceReadError) {
                steps = try walkers.indices.map { index throws(TraceReadError) in try walkers[index].steps(at: position)
                }
            } catch {
                throw .unreadable(error)
            }
            for afterTurn in [false, true] {
                let fingerprints = steps.map { $0[afterTurn ? 1 : 0] }
                let (mine, theirs) = (fingerprints[..<failingCount], fingerprints[failingCount...])
                guard mine.allSatisfy({ failed in !theirs.contains { $0 == failed } }) else { continue }
                // A turn is described with the work after it (where its async results are
                // accepted): what the turn wrote and which generation it was, together.
                let described = steps.map { step in
                    afterTurn
                        ? Self.sentences(step[1])
                        : Self.sentences(step[0]) + Self.sentences(step[1]).map { "after it: \($0)" }
                }
                let failedSentences = Array(described[..<failingCount])
                let passedSentences = Array(described[failingCount...])
                let passedUnion = Set(passedSentences.joined())
                let failedUnion = Set(failedSentences.joined())
                let sharedFailing = failedSentences.dropFirst().reduce(Set(failedSentences[0])) {
                    $0.intersection($1)
                }
                let sharedPassing = passedSentences.dropFirst().reduce(Set(passedSentences[0])) {
                    $0.intersection($1)
                }
                self.positionsCompared = position + 1
                self.position = position
                self.afterTurn = afterTurn
                self.turn = walkers[0].turn(at: position)
                self.turnName = walkers[0].name(at: position)
                // In a step's own order (the turn, its values, then what else it did), not sorted.
                onlyInFailing = failedSentences[0].filter { sharedFailing.contains($0) && !passedUnion.contains($0) }
                onlyInPassing = passedSentences[0].filter { sharedPassing.contains($0) && !failedUnion.contains($0) }
                perFailingRun =
                    onlyInFailing.isEmpty
                    ? zip(failing, failedSentences).map { run, sentences in
                        RunDetail(run: run, sentences: sentences.filter { !passedUnion.contains($0) })
                    }
                    : []
                return
            }
            position += 1
        }
        positionsCompared = position
        self.position = nil
        afterTurn = false
        turn = nil
        turnName = nil
        onlyInFailing = []
        onlyInPassing = []
        perFailingRun = []
    }

    /// A step's sentences, each naming states by label, in the order a reader takes them: the
    /// turn's name, each value change (by label), the async steps as one sentence in their order
    /// (a race is an order), then the other facts as the comparison orders them.
    static func sentences(_ step: StepFingerprint?) -> [String] {
        guard let step else { return ["the run had ended"] }
        var sentences: [String] = []
        if !step.name.isEmpty { sentences.append("turn '\(step.name)'") }
        for (label, change) in step.values.sorted(by: { $0.key < $1.key }) {
            // The value as data: two runs whose values differ only in a field the text leaves
            // out still say different things.
            let value = change.new.map { $0.json?.jsonText ?? $0.text } ?? "nil"
            sentences.append("\(label) = \(value) (\(change.how.joined(separator: ", ")))")
        }
        if let async = step.facts[.async], !async.isEmpty { sentences.append(async.joined(separator: ", then ")) }
        for aspect in TraceDifference.Aspect.factOrder where aspect != .failures && aspect != .async {
            sentences += step.facts[aspect] ?? []
        }
        var seen = Set<String>()
        return sentences.filter { seen.insert($0).inserted }
    }
}

/// Why runs could not be separated.
public enum FlakyRefusal: Error, Equatable, Sendable {
    /// Only failing, or only passing, runs were given.
    case needsBoth(failing: Int, passing: Int)
    /// A turn of a run could not be decoded.
    case unreadable(TraceReadError)
    /// Ctrl-C stopped the comparison.
    case cancelled
}

/// One run read step by step: its turns in order and the names of its registrations so far.
private struct RunWalker {
    let trace: TraceFile
    let sequences: [TurnNumber]
    var names: RegistrationNames
    var read: [TraceTurn] = []

    init(_ trace: TraceFile) throws(TraceReadError) {
        self.trace = trace
        sequences = trace.turnSequences
        names = try RegistrationNames(trace, before: sequences.first)
    }

    func hasEnded(at position: Int) -> Bool { position >= sequences.count }

    func turn(at position: Int) -> TurnNumber? { position < sequences.count ? sequences[position] : nil }

    func name(at position: Int) -> String? { position < read.count ? read[position].name : nil }

    /// The turn's fingerprint and the work after it's, at `position`; nils once the run ended.
    /// The failures after the turn are left out: they are what the runs are split by.
    mutating func steps(at position: Int) throws(TraceReadError) -> [StepFingerprint?] {
        guard position < sequences.count else { return [nil, nil] }
        let turn = try trace.turn(sequences[position])
        read.append(turn)
        names.note(turn)
        let labels = names.labeller(trace)
        return [
            StepFingerprint(name: turn.name, origin: turn.origin.rawValue, events: turn.events, labels: labels),
            StepFingerprint(name: "", events: turn.after, labels: labels),
        ]
    }
}
