public import CogTraceFormat
import CogTraceStore
import Foundation

/// Where `bisect` stopped: the turn, and how many times it evaluated the expression to get there.
public struct BisectResult: Equatable, Sendable {
    /// The first turn where the expression holds.
    public let turn: TurnNumber
    /// How many turns it evaluated the expression at.
    public let evaluations: Int
}

extension CommandContext {
    /// The two turns `diff` compares: `A B`, or the cursor and `N`. A turn may be the one before
    /// the first, which stands for the graph the recording starts from.
    func diffTurns(_ words: [String]) throws(InspectorError) -> (TurnNumber, TurnNumber) {
        let numbers = try words.map { word throws(InspectorError) in try CommandArguments.turn(word) }
        let pair: (TurnNumber, TurnNumber)
        switch numbers.count {
        // One turn compares with the cursor in time order, earlier first: `diff 9` at turn 25
        // reads "from turn 9 to turn 25".
        case 1: pair = (min(cursor, numbers[0]), max(cursor, numbers[0]))
        case 2: pair = (numbers[0], numbers[1])
        default:
            throw InspectorError("diff needs two turns (diff A B) or one to compare with the cursor; see 'help diff'")
        }
        for turn in [pair.0, pair.1] where turn != (turns.first ?? 1) - 1 { try requireTurn(turn) }
        return pair
    }

    /// What differs between the graph after turn `from` and after turn `to`.
    public func diff(from: TurnNumber, to: TurnNumber) throws(InspectorError) -> GraphDiff {
        GraphDiff(from: try graph(after: from), to: try graph(after: to))
    }

    /// Reads an expression, resolving its states against this trace.
    public func expression(_ text: String) throws(InspectorError) -> TraceExpression {
        try TraceExpression.parse(
            text, resolve: { label throws(InspectorError) in try self.resolveState(label) },
            isLabel: { [trace] in trace.stateID(labelled: $0) != nil })
    }

    /// `bisect` the slow way, applying every turn to the whole graph: the oracle the fast one is
    /// tested against, and the way a trace with undecodable events is bisected. Each candidate's
    /// graph is reached from the nearest keyframe before it, applying only the turns in between.
    func bisectByReplay(_ expression: TraceExpression) throws(InspectorError) -> BisectResult? {
        guard let first = turns.first else { return nil }
        var candidates: Set<TurnNumber> = [first]
        let named = expression.states.map(\.id)
        for reference in expression.states {
            for turn in timeline(covering: named).entries(of: reference.id).turns {
                candidates.insert(turn)
                if let index = trace.entryIndex(of: turn), index + 1 < turns.count {
                    candidates.insert(turns[index + 1])
                }
            }
        }
        var evaluations = 0
        let ordered = candidates.sorted()
        // One walk forward for all candidates: each turn is applied once (or skipped by jumping
        // to a nearer keyframe), so bisect is linear in the turns, not in turns × candidates.
        var walk: SnapshotWalk
        do {
            walk = try trace.walk(from: ordered[0], readsAhead: ordered.count > 1)
        } catch {
            throw malformed(error)
        }
        let fields = expression.fieldReferences
        for sequence in ordered {
            evaluations += 1
            // Asked often enough that Ctrl-C stops a walk of a million turns at once.
            if evaluations % Self.interruptCheckStep == 0, interruptRequested() { throw .interrupted }
            // A bisect over many candidates walks most of the trace: the front end may show how far.
            if evaluations % Self.bisectProgressStep == 0 {
                progress?(TraceProgress(task: "bisecting", completed: evaluations, total: ordered.count))
            }
            let graph: GraphSnapshot
            do {
                graph = try walk.advance(through: sequence)
            } catch {
                throw malformed(error)
            }
            let decoded: TraceTurn
            if let last = walk.lastTurn, last.sequence == sequence {
                decoded = last
            } else {
                decoded = try turn(sequence)
            }
            try refuseTextOnlyField(among: fields, in: graph, at: sequence)
            if expression.holds(in: graph, turn: decoded) {
                return BisectResult(turn: sequence, evaluations: evaluations)
            }
        }
        return nil
    }

    /// How many candidates a bisect evaluates between two progress reports.
    static let bisectProgressStep = 4_096
    /// How many turns a long walk takes between two looks at Ctrl-C: a few milliseconds' work.
    package static let interruptCheckStep = 256

    /// Compares this recording with the one at `path` turn by turn.
    func compareReport(with path: String, from start: TurnNumber?) throws(InspectorError) -> [Report] {
        let other: TraceFile
        do {
            other = try TraceFile.load(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw InspectorError(error.line == 0 ? error.message : "'\(path)' is malformed: \(error)")
        }
        let comparison: TraceComparison
        do {
            comparison = try TraceComparison(trace, other, from: start)
        } catch {
            if error == TraceFile.cancelled { throw .interrupted }
            throw InspectorError("a turn could not be decoded: \(error)")
        }
        return Self.comparisonReport(comparison)
    }

    /// A comparison as typed values: at the first divergence, where (in each recording), what
    /// differs and every line saying how; later divergences in a table; a verdict always.
    static func comparisonReport(_ comparison: TraceComparison) -> [Report] {
        guard let first = comparison.firstDivergence else {
            return [
                .message(
                    "the recordings agree on all \(comparison.turnsCompared) turns compared, and on the work after each"
                ),
                .verdict(.agree),
            ]
        }
        let place = { (turn: TurnNumber?) -> Cell in
            turn.map { .turn(TurnReference($0, afterTurn: first.afterTurn)) } ?? .absent
        }
        var fields = [
            Field("first divergence", first.aspect == .turnCount ? .absent : place(first.turn)),
            Field("in the other", first.aspect == .turnCount ? .absent : place(first.otherTurn)),
        ]
        if first.aspect == .turnCount { fields.append(Field("reason", .text(first.detail))) }
        fields.append(Field("what differs", .list(first.aspects.map { .text($0.rawValue) })))
        var reports: [Report] = [.fields(fields)]
        if first.aspect != .turnCount { reports.append(.section("how", [.lines(first.lines)])) }
        let later = comparison.differences.dropFirst()
        if later.isEmpty {
            reports.append(.message("no later step differs (\(comparison.turnsCompared) turns compared)"))
        } else {
            let rows = later.prefix(10).map { difference -> [Cell] in
                [
                    difference.turn.map { .turn(TurnReference($0, afterTurn: difference.afterTurn)) } ?? .absent,
                    difference.otherTurn.map { .turn(TurnReference($0, afterTurn: difference.afterTurn)) } ?? .absent,
                    .text(difference.aspects.map(\.rawValue).joined(separator: ", ")), .text(difference.detail),
                ]
            }
            var parts: [Report] = [.table(columns: ["turn", "other turn", "what differs", "how"], rows: rows)]
            if later.count > 10 { parts.append(.message("… and \(later.count - 10) more")) }
            reports.append(
                .section(
                    "\(later.count) later step\(later.count == 1 ? " differs" : "s differ") "
                        + "(of \(comparison.turnsCompared) turns compared)", parts))
        }
        return reports + [.verdict(.differs)]
    }
}
