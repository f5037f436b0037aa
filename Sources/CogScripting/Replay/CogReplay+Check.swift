public import CogTraceFormat
import CogTraceStore
import Foundation

/// Which recorded facts a replay test compares after each step.
public enum CogReplayCheck: String, Sendable, CaseIterable {
    /// The values of the derived states (automatic and async) the recording shows.
    case derived
    /// Everything `diff --trace` compares (values, edges, leases, reactions, async work), the
    /// recording's test failures aside.
    case all
}

extension CogReplay {
    /// Replays the recording on `target` and returns where it first differs in what `check`
    /// compares, at a turn in `turns` (every turn when nil); nil when it agrees.
    /// - Throws: `ReplayError` when the replay cannot run (a missing writer, a malformed turn).
    public func divergence(
        on target: some ReplayTarget, checking check: CogReplayCheck, turns: ClosedRange<TurnNumber>? = nil
    ) async throws(ReplayError) -> (result: ReplayResult, divergence: CogReplayDivergence?) {
        let result = try await verify(against: target)
        let within = { (turn: TurnNumber?) in turn.map { turns?.contains($0) ?? true } ?? true }
        var found: CogReplayDivergence?
        switch check {
        case .all:
            for difference in result.comparison.differences where difference.aspects != [.failures] {
                guard within(difference.turn) else { continue }
                // A skipped source's values were never written back: its own lines say nothing.
                let lines = difference.lines.filter { !isAboutSkippedState($0) }
                guard !lines.isEmpty else { continue }
                found = CogReplayDivergence(
                    turn: difference.turn ?? recording.turnSequences.last ?? 0, afterTurn: difference.afterTurn,
                    step: difference.position + 1, steps: recording.turnCount,
                    turnName: difference.turn.flatMap { try? recording.turn($0).name } ?? "", lines: lines)
                break
            }
        case .derived:
            found = try derivedDivergence(result, turns: turns)
        }
        return (result, found)
    }

    /// Whether `line` (a `diff --trace` line) is about a state whose declaration replay skipped:
    /// its values (`label: here …`) or its lifecycle (`only here: created label = …`).
    private func isAboutSkippedState(_ line: String) -> Bool {
        guard !skipping.isEmpty else { return false }
        var rest = Substring(line)
        for side in ["only here: ", "only in the other: "] where rest.hasPrefix(side) {
            rest = rest.dropFirst(side.count)
        }
        for verb in ["created ", "released ", "write to ", "grace of "] where rest.hasPrefix(verb) {
            rest = rest.dropFirst(verb.count)
        }
        guard let end = rest.firstIndex(where: { $0 == " " || $0 == ":" }) else { return false }
        let label = String(rest[..<end])
        guard let id = recording.stateID(labelled: label), let info = recording.states[id] else { return false }
        return skipping.contains(info.declaration)
    }

    /// The first step whose derived values differ, walking both recordings once.
    private func derivedDivergence(
        _ result: ReplayResult, turns: ClosedRange<TurnNumber>?
    ) throws(ReplayError) -> CogReplayDivergence? {
        let replayed = result.replayed
        let sequences = recording.turnSequences
        guard let first = sequences.first else { return nil }
        do throws(TraceReadError) {
            var mine = try recording.walk(from: first)
            var theirs = try replayed.turnSequences.first.map { s throws(TraceReadError) in try replayed.walk(from: s) }
            let derived = recording.states.values.filter { $0.shape == .automatic || $0.shape == .async }
                .sorted { $0.id < $1.id }
            for (position, sequence) in sequences.enumerated() {
                let graph = try mine.advance(through: sequence)
                guard turns?.contains(sequence) ?? true || sequence < (turns?.lowerBound ?? 0) else { break }
                guard position < replayed.turnSequences.count, var walk = theirs else {
                    return CogReplayDivergence(
                        turn: sequence, afterTurn: false, step: position + 1, steps: sequences.count,
                        turnName: (try? recording.turn(sequence).name) ?? "",
                        lines: ["the replay ends after \(replayed.turnCount) turns; the recording goes on"])
                }
                let other = try walk.advance(through: replayed.turnSequences[position])
                theirs = walk
                guard turns?.contains(sequence) ?? true else { continue }
                var lines: [String] = []
                for info in derived {
                    guard let recorded = graph.states[info.id] else { continue }
                    let replayedValue = replayed.stateID(labelled: info.label).flatMap { other.states[$0] }
                    let here = recorded.value?.text ?? "nil"
                    let there = replayedValue.map { $0.value?.text ?? "nil" } ?? "not computed"
                    if here != there { lines.append("\(info.label): here \(here); in the other \(there)") }
                }
                guard !lines.isEmpty else { continue }
                let comparison = result.comparison.differences.first { $0.position == position }
                return CogReplayDivergence(
                    turn: sequence, afterTurn: comparison?.afterTurn ?? true, step: position + 1,
                    steps: sequences.count, turnName: (try? recording.turn(sequence).name) ?? "", lines: lines)
            }
        } catch {
            throw ReplayError("a turn could not be decoded while checking values: \(error)")
        }
        return nil
    }
}

/// Where a replay first differs from its recording, in `diff --trace`'s words: "here" is the
/// recording, "the other" the replay.
public struct CogReplayDivergence: Error, Equatable, CustomStringConvertible {
    /// The recording's turn.
    public let turn: TurnNumber
    /// Whether the difference is in the work after the turn (`N+`: a read, a reaction).
    public let afterTurn: Bool
    /// The turn's place among the recording's, from 1.
    public let step: Int
    /// How many turns the recording has.
    public let steps: Int
    /// The turn's name in the recording.
    public let turnName: String
    /// What differs, a line each, starting with the state's label when a value differs.
    public let lines: [String]
    /// Where the recording was written out beside the failing replay's trace, when it was.
    public var recordingPath: String?
    /// Where the failing replay's own trace was written, when it was.
    public var replayPath: String?

    /// A divergence at `turn`.
    public init(turn: TurnNumber, afterTurn: Bool, step: Int, steps: Int, turnName: String, lines: [String]) {
        self.turn = turn
        self.afterTurn = afterTurn
        self.step = step
        self.steps = steps
        self.turnName = turnName
        self.lines = lines
    }

    /// The first state whose value differs, when a value does.
    public var state: String? {
        guard let line = lines.first, let colon = line.range(of: ": here ") else { return nil }
        return String(line[..<colon.lowerBound])
    }

    /// `turn 5` or `turn 5+`.
    public var place: String { "turn \(turn)\(afterTurn ? "+" : "")" }

    public var description: String {
        var text = "the replay differs from the recording at \(place) (step \(step) of \(steps)"
        text += turnName.isEmpty ? ")" : ", \(turnName))"
        text += ": " + (lines.first ?? "")
        for line in lines.dropFirst().prefix(4) { text += "\n  " + line }
        if lines.count > 5 { text += "\n  and \(lines.count - 5) more" }
        text += "\n(here is the recording; the other is this replay)"
        if let recordingPath, let replayPath {
            text += "\ncompare them: coginspect \(recordingPath) -c 'diff --trace \(replayPath)'"
        }
        return text
    }
}
