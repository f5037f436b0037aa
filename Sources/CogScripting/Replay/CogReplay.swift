import Cog
import CogTrace
public import CogTraceStore

/// Re-executes a recording against the current code and says whether it still does the same.
///
/// Replay walks the recorded turns in order. A turn the app makes by itself (assembly, reaction
/// write-backs, a generation a timer started once the clock reached the turn's time) it leaves to
/// the app; a turn that came from outside it feeds: an op's source writes, a refresh, an async
/// completion with the recorded value or failure, a discard, a grace expiry. Exports the recording
/// shows subscribing between turns are opened and closed through the target. Then it compares the
/// replay's own recording with the original turn by turn, as `diff --trace` does.
///
/// ```swift
/// let result = try await CogReplay(recording: trace).verify(against: session)
/// #expect(result.firstDivergence == nil)
/// ```
public struct CogReplay {
    /// The recording replayed.
    public let recording: TraceFile
    /// How long replay waits for a turn the app should make by itself (or for work to start)
    /// before it moves on and lets the comparison report the difference. Only a diverging replay
    /// ever waits this long.
    public var patience: Duration = .seconds(5)
    /// Declarations whose recorded writes replay leaves out, because their values cannot be
    /// rebuilt (a type that is not `Decodable`); the app keeps its own values for them.
    public var skipping: Set<String> = []

    /// Prepares a replay of `recording`.
    /// - Throws: `ReplayError` when the recording does not hold the whole run from its first turn.
    public init(recording: TraceFile) throws(ReplayError) {
        if let evicted = recording.trailer?.evicted, evicted > 0 {
            throw ReplayError("the recording's ring evicted \(evicted) turns; replay needs the whole run")
        }
        if let first = recording.turnSequences.first, first != 1 {
            throw ReplayError("the recording starts at turn \(first); replay needs the whole run from turn 1")
        }
        self.recording = recording
    }

    /// The sources the recording shows seeded before its first turn, in id order, less the
    /// declarations replay skips.
    public var seeds: [ReplaySeed] {
        guard let graph = recording.graphBeforeFirstTurn else { return [] }
        return graph.states.values.sorted { $0.id < $1.id }.compactMap { state in
            guard let info = recording.states[state.id], info.shape == .manual, let value = state.value,
                !skipping.contains(info.declaration)
            else { return nil }
            return ReplaySeed(
                state: ReplayState(label: info.label, declaration: info.declaration, key: info.key),
                value: value.json.map(StructuredValue.init))
        }
    }

    /// Feeds the recording to `target` and compares what it does with what was recorded.
    /// - Throws: `ReplayError` when the target lacks a source writer or the recording a value replay needs.
    public func verify(against target: some ReplayTarget) async throws(ReplayError) -> ReplayResult {
        try refuseTextOnlyInputs()
        var feeder = ReplayFeeder(recording: recording, target: target, patience: patience)
        feeder.skipping = skipping
        var fed = 0
        do {
            feeder.followReads(in: try recording.leadingIdleEvents(), after: nil)
        } catch {
            throw ReplayError("the recording's events before its first turn are malformed: \(error)")
        }
        for sequence in recording.turnSequences {
            let turn = try decode(sequence)
            if try await feeder.feed(turn) { fed += 1 }
        }
        await feeder.waitForTurns(recording.turnCount)
        let replayed: TraceFile
        do {
            replayed = try TraceFile.parse(target.recorder.traceText())
        } catch {
            throw ReplayError("the replay's own recording could not be read: \(error)")
        }
        do {
            return ReplayResult(
                inputsFed: fed, comparison: try TraceComparison(recording, replayed), replayed: replayed)
        } catch {
            throw ReplayError("a turn could not be decoded while comparing: \(error)")
        }
    }

    /// Stops before the first turn when the recording holds values replay would have to rebuild
    /// but that were recorded as text only (an async result, or a written source not skipped), naming
    /// every one: a replay that met them one at a time failed midway, once per fix.
    private func refuseTextOnlyInputs() throws(ReplayError) {
        let needed: [TextOnlyInput]
        do {
            // A seeded source is the target's to provide (a service the app injects); a written
            // one can be skipped; an async result has no way around it.
            needed = try recording.textOnlyInputs(through: recording.turnSequences.last ?? 0).filter {
                $0.kind == .asyncResult || ($0.kind == .written && !skipping.contains($0.declaration))
            }
        } catch {
            throw ReplayError("the recording is malformed: \(error)")
        }
        guard !needed.isEmpty else { return }
        throw ReplayError(
            "the recording holds values replay cannot rebuild, recorded as text only (their types are not "
                + "Codable): \(needed.map(\.description).joined(separator: "; ")); make the types Codable and record "
                + "again (a source can also be skipped)")
    }

    private func decode(_ sequence: TurnNumber) throws(ReplayError) -> TraceTurn {
        do {
            return try recording.turn(sequence)
        } catch {
            throw ReplayError("turn \(sequence) of the recording is malformed: \(error)")
        }
    }
}

/// What a replay found.
public struct ReplayResult {
    /// How many recorded turns replay fed as inputs (the rest the app made by itself).
    public let inputsFed: Int
    /// The recording and the replay compared turn by turn.
    public let comparison: TraceComparison
    /// The replay's own recording.
    public let replayed: TraceFile

    /// The first turn where the current code did something else, or nil when it matches.
    public var firstDivergence: TraceDifference? { comparison.firstDivergence }
}
