import Cog
import CogTrace
import CogTraceStore

/// Walks a recording's turns for `CogReplay`: moves the target's clock to each turn's time, leaves
/// the turns the app makes by itself to the app, and feeds the others.
struct ReplayFeeder<Target: ReplayTarget> {
    let recording: TraceFile
    let target: Target
    let patience: Duration
    /// Declarations whose recorded values replay leaves unwritten (they cannot be rebuilt).
    var skipping: Set<String> = []
    /// States a read before an app-made turn stood for, whose renewal after that turn is not read again.
    private var peeksMadeEarly: Set<NodeID> = []
    /// The recording's graph after each turn, walked once.
    private var snapshots: ForwardSnapshots
    /// Exports replay opened, by the registration id the recording gave them.
    private var openExports: [NodeID: ReplayState] = [:]

    init(recording: TraceFile, target: Target, patience: Duration) {
        self.recording = recording
        self.target = target
        self.patience = patience
        snapshots = ForwardSnapshots(recording)
    }

    /// How many turns the replay has made so far.
    private var replayedTurns: Int { target.recorder.recordedTurnCount }

    /// Brings the replay up to `turn`: true when replay fed it, false when the app made it itself
    /// (or nothing could make it, which the comparison will report).
    mutating func feed(_ turn: TraceTurn) async throws(ReplayError) -> Bool {
        let position = recording.entryIndex(of: turn.sequence) ?? 0
        let recordedTime = Duration.microseconds(turn.start)
        let elapsed = target.clock.now.offset
        if recordedTime > elapsed, target.clock.advance(by: recordedTime - elapsed) > 0 {
            await waitForTurns(position + 1)
        }
        var fed = false
        if replayedTurns <= position, let input = try input(for: turn) {
            try await perform(input, turn: turn)
            target.didFeed(input)
            fed = true
        }
        await followIdleEvents(of: turn)
        followReads(in: turn.after, after: turn.sequence, refreshed: Self.generationsStarted(in: turn))
        return fed
    }

    /// Reads the states something outside the app read between turns (see `OutsideReads`), in
    /// the recording's order. A target that cannot read leaves it to the app's own reads.
    ///
    /// A read can make a turn of the app's inside it (an async state's start): the recording
    /// then shows the state's recompute before that turn and the read itself (its grace renewed
    /// by the peek) after it. So a state the next app-made turn's idle shows peeked, which a
    /// state read here feeds, is what was read here; its renewal there is not read again.
    ///
    /// A refresh is not a read: the states in `refreshed` (a generation of each started in the
    /// turn before these events) recompute for their new generation, which shows in the same
    /// place; they count as read only where the events show a peek.
    mutating func followReads(in events: [TraceEvent], after sequence: TurnNumber?, refreshed: Set<NodeID> = []) {
        let graph = sequence.flatMap { snapshots.after($0) }
        var roots = OutsideReads.roots(in: events, dependencies: { graph?.states[$0]?.dependencies ?? [] })
        roots.removeAll { peeksMadeEarly.contains($0) }
        roots.removeAll { id in
            refreshed.contains(id)
                && !events.contains { if case .leaseRenewed(id, "peek") = $0 { true } else { false } }
        }
        peeksMadeEarly = []
        if let next = nextAppTurn(after: sequence), let nextGraph = snapshots.after(next.sequence) {
            var replaced: [NodeID] = []
            for root in roots {
                let peeked = next.after.compactMap { event -> NodeID? in
                    // A state the read here created schedules its grace after that turn; a renewal
                    // beside it is a second read, made there.
                    guard case .leaseRenewed(let id, "peek") = event, !schedulesGrace(id, next.after) else {
                        return nil
                    }
                    return id == root
                        || OutsideReads.reaches(id, root, dependencies: { nextGraph.states[$0]?.dependencies ?? [] })
                        ? id : nil
                }
                if let reader = peeked.first {
                    if !replaced.contains(reader) { replaced.append(reader) }
                    peeksMadeEarly.insert(reader)
                } else {
                    replaced.append(root)
                }
            }
            roots = replaced
        }
        for id in roots {
            guard let state = try? state(id) else { continue }
            _ = target.read(state)
        }
    }

    /// The states a generation of which `turn` started.
    private static func generationsStarted(in turn: TraceTurn) -> Set<NodeID> {
        Set(turn.events.compactMap { if case .generationStarted(let id, _, _) = $0 { id } else { nil } })
    }

    private func schedulesGrace(_ id: NodeID, _ events: [TraceEvent]) -> Bool {
        events.contains { if case .graceScheduled(id, _) = $0 { true } else { false } }
    }

    /// The turn after `sequence` when a read could have made it (not an op, which only a caller
    /// makes): an async state's start, a reaction's write-back.
    private func nextAppTurn(after sequence: TurnNumber?) -> TraceTurn? {
        let sequences = recording.turnSequences
        let index = sequence.flatMap { recording.entryIndex(of: $0).map { $0 + 1 } } ?? 0
        guard index < sequences.count, let next = try? recording.turn(sequences[index]), next.origin != .op,
            !next.events.contains(where: { if case .asyncStatus(_, .success, _, _, _) = $0 { true } else { false } })
        else { return nil }
        return next
    }

    /// Waits, at most `patience`, until the replay has made `count` turns.
    func waitForTurns(_ count: Int) async {
        let deadline = ContinuousClock.now + patience
        while replayedTurns < count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// What came from outside to make `turn`; nil for a turn only the app itself can make.
    private func input(for turn: TraceTurn) throws(ReplayError) -> ReplayInput? {
        switch turn.origin {
        case .op: return .op(name: turn.name)
        case .graceExpiry: return .graceExpiry
        case .discard:
            for case .stateReleased(let id, _) in turn.events { return .discard(try state(id)) }
            return nil
        case .asyncCompletion:
            for case .asyncStatus(let id, let kind, _, _, _) in turn.events where kind == .success || kind == .failure {
                return .completion(try state(id))
            }
            for case .generationStarted(let id, _, _) in turn.events { return .refresh(try state(id)) }
            return nil
        default:
            return nil
        }
    }

    private func perform(_ input: ReplayInput, turn: TraceTurn) async throws(ReplayError) {
        switch input {
        case .op(let name):
            try performOp(named: name, turn: turn)
        case .graceExpiry:
            target.cogs.expireDueStates()
        case .discard(let state):
            do {
                try writer(for: state).discard(
                    in: target.cogs, key: state.key, decoder: RecordedValueDecoder(value: nil))
            } catch {
                throw ReplayError("cannot discard '\(state.label)': \(error)")
            }
        case .refresh(let state):
            guard target.refresh(state) else {
                throw ReplayError("the target cannot refresh '\(state.label)', which turn \(turn.sequence) refreshed")
            }
        case .completion(let state):
            let outcome = try outcome(of: state, in: turn)
            let generation = acceptedGeneration(of: state, in: turn)
            let deadline = ContinuousClock.now + patience
            while !(try await complete(state, outcome, generation: generation)), ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(1))
            }
        case .exportOpened, .exportClosed:
            break
        }
    }

    private func complete(
        _ state: ReplayState, _ outcome: ReplayOutcome, generation: Int?
    ) async throws(ReplayError) -> Bool {
        do {
            return try await target.complete(state, with: outcome, generation: generation)
        } catch let error as ReplayError {
            throw error
        } catch {
            throw ReplayError("cannot complete '\(state.label)': \(error)")
        }
    }

    /// Performs one op turn with the recorded source writes, under the recorded turn name.
    private func performOp(named name: String, turn: TraceTurn) throws(ReplayError) {
        var writes: [(ReplayState, TraceValue)] = []
        for event in turn.events {
            switch event {
            case .write(let id, _, let value), .writeDiscarded(let id, let value):
                guard let info = recording.states[id], info.shape == .manual, !skipping.contains(info.declaration)
                else { break }
                writes.append((try state(id), value))
            default: break
            }
        }
        let staged = try writes.map { write throws(ReplayError) in (try writer(for: write.0), write.0, write.1) }
        let failure = FailureBox()
        target.cogs.turn(name) { writer in
            for (source, state, value) in staged {
                do {
                    try source.write(writer, key: state.key, decoder: RecordedValueDecoder(value: value.json))
                } catch {
                    failure.error = ReplayError("cannot write '\(state.label)' in turn \(turn.sequence): \(error)")
                }
            }
        }
        if let error = failure.error { throw error }
    }

    /// Opens and closes the exports the recording shows between this turn and the next.
    private mutating func followIdleEvents(of turn: TraceTurn) async {
        for (index, event) in turn.after.enumerated() {
            switch event {
            case .registered(let id, let name, .export):
                let lease = turn.after[index...].first { if case .leaseAcquired(_, name) = $0 { true } else { false } }
                guard case .leaseAcquired(let stateID, _)? = lease, let state = try? state(stateID),
                    target.openExport(of: state)
                else { continue }
                openExports[id] = state
                target.didFeed(.exportOpened(state))
            case .unregistered(let id):
                guard let state = openExports.removeValue(forKey: id) else { continue }
                await target.closeExport(of: state)
                target.didFeed(.exportClosed(state))
            default:
                break
            }
        }
    }

    /// The recorded outcome of an async state's work in `turn`: the value it published (or, for
    /// an equal value, the one it kept), or the failure's message.
    /// The generation whose result `turn` published, as the recording numbers it (its
    /// acceptance comes in the turn or in the work after it).
    private func acceptedGeneration(of state: ReplayState, in turn: TraceTurn) -> Int? {
        let id = recording.stateID(labelled: state.label)
        for case .generationAccepted(id, let generation, _) in turn.events + turn.after { return generation }
        return nil
    }

    private func outcome(of state: ReplayState, in turn: TraceTurn) throws(ReplayError) -> ReplayOutcome {
        let id = recording.stateID(labelled: state.label)
        for case .asyncStatus(id, .failure, _, _, let error) in turn.events {
            return .failure(error ?? "failure")
        }
        for case .write(id, _, let value) in turn.events { return .success(value.json.map(StructuredValue.init)) }
        let graph = try? recording.snapshot(after: turn.sequence)
        return .success(graph?.states[id ?? -1]?.value?.json.map(StructuredValue.init))
    }

    private func state(_ id: NodeID) throws(ReplayError) -> ReplayState {
        guard let info = recording.states[id] else { throw ReplayError("the recording names no state #\(id)") }
        return ReplayState(label: info.label, declaration: info.declaration, key: info.key)
    }

    private func writer(for state: ReplayState) throws(ReplayError) -> CogSourceWriter {
        guard let writer = target.sources.first(where: { $0.declaration == state.declaration }) else {
            let known = target.sources.map(\.declaration).joined(separator: ", ")
            throw ReplayError(
                "the target has no source writer for '\(state.declaration)'; it has \(known.isEmpty ? "none" : known)")
        }
        return writer
    }
}

/// Carries an error out of a turn body, which cannot throw.
private final class FailureBox {
    var error: ReplayError?
}
