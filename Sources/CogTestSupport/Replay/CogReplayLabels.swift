import Cog
import CogScripting
import CogTrace
import CogTraceFormat
import CogTraceStore

/// The declarations a replay of a recording must reach: the sources its op turns write or its
/// discards release, and the states something outside the app read between turns.
struct CogReplayLabels {
    let recording: TraceFile
    let skipping: Set<String>

    /// Those `target` does not have, sorted; empty when it has them all. A target that reads by
    /// label (`CogReplayApp`) is checked for reads as well as writes.
    func missing(in target: some ReplayTarget) throws(ReplayError) -> [String] {
        var written: Set<String> = []
        var read: Set<String> = []
        var refreshed: Set<String> = []
        var snapshots = ForwardSnapshots(recording)
        do throws(TraceReadError) {
            note(reads: try recording.leadingIdleEvents(), graph: nil, into: &read)
            for sequence in recording.turnSequences {
                let turn = try recording.turn(sequence)
                for event in turn.events {
                    switch event {
                    case .write(let id, _, _), .writeDiscarded(let id, _):
                        if turn.origin == .op, let info = recording.states[id], info.shape == .manual {
                            written.insert(info.declaration)
                        }
                    case .stateReleased(let id, _):
                        if turn.origin == .discard, let info = recording.states[id] { written.insert(info.declaration) }
                    default: break
                    }
                }
                if turn.origin == .asyncCompletion, !turn.events.contains(where: Self.isOutcome) {
                    for case .generationStarted(let id, _, _) in turn.events {
                        if let info = recording.states[id] { refreshed.insert(info.declaration) }
                    }
                }
                if !turn.after.isEmpty {
                    note(reads: turn.after, graph: snapshots.after(sequence), into: &read)
                }
            }
        } catch {
            throw ReplayError("the recording is malformed: \(error)")
        }
        let writers = Set(target.sources.map(\.declaration))
        var missing = written.subtracting(skipping).subtracting(writers)
        if let app = target as? CogReplayApp {
            missing.formUnion(read.union(refreshed).subtracting(app.declarationLabels))
        }
        return missing.sorted()
    }

    /// Whether `event` is an async state's success or failure (a completion, not a refresh).
    private static func isOutcome(_ event: TraceEvent) -> Bool {
        if case .asyncStatus(_, let kind, _, _, _) = event { return kind == .success || kind == .failure }
        return false
    }

    /// The seeded declarations the assembly's `declarations` cannot write, sorted. An assembly
    /// that declares nothing brings its own target, which seeds what it needs itself.
    func missingSeeds(among declarations: [CogReplayDeclaration]) throws(ReplayError) -> [String] {
        guard !declarations.isEmpty, let graph = recording.graphBeforeFirstTurn else { return [] }
        let writable = Set(declarations.filter(\.isWritable).map(\.declaration))
        var missing: Set<String> = []
        for state in graph.states.values {
            guard let info = recording.states[state.id], info.shape == .manual, state.value != nil,
                !skipping.contains(info.declaration), !writable.contains(info.declaration)
            else { continue }
            missing.insert(info.declaration)
        }
        return missing.sorted()
    }

    private func note(reads events: [TraceEvent], graph: GraphSnapshot?, into read: inout Set<String>) {
        for id in OutsideReads.roots(in: events, dependencies: { graph?.states[$0]?.dependencies ?? [] }) {
            if let info = recording.states[id] { read.insert(info.declaration) }
        }
    }
}
