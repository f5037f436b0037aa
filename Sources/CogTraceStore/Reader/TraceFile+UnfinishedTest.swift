public import CogTraceFormat

/// A test's trace that did not end the way a test ends: closed by a signal (a `crash` or
/// `terminated` record), or cut short with nothing (the process died: SIGKILL, a power cut).
/// What such a trace says first is how the test ended and what its runtime was waiting on.
extension TraceFile {
    /// One async generation still in flight where the trace ends.
    public typealias PendingGeneration = TracePendingGeneration

    /// How far back the turn that started a pending generation is looked for.
    static let pendingSearchDepth = 10_000

    /// Whether this is a test's trace that the recorder never finished and whose process is
    /// gone: a streamed test trace with no trailer, written by a process that has ended or ran
    /// on another machine.
    public var isCutShortTest: Bool {
        guard header.test != nil, trailer == nil else { return false }
        guard let writer = header.writer else { return true }
        return writer.host != TraceWriterProcess.hostName || writer.hasEnded
    }

    /// The failure that stands for a test cut short with no record of how (`died`), or nil.
    var diedFailure: TraceFailure? {
        guard isCutShortTest, let test = header.test,
            !contents.failures.contains(where: { $0.kind == .crash || $0.kind == .terminated })
        else { return nil }
        return TraceFailure(
            after: turnSequences.last ?? 0, test: test, kind: .died, message: "the process died while the test ran",
            file: nil, line: nil)
    }

    /// The async generations in flight after the last turn, with the turn that started each:
    /// what a test that never ended was waiting on. Empty for a trace that finished.
    public func pendingGenerationsAtEnd() -> [PendingGeneration] {
        guard let last = turnSequences.last, let snapshot = try? snapshot(after: last)
        else { return [] }
        var pending: [(state: NodeID, generation: Int)] = []
        for (id, state) in snapshot.states {
            for generation in state.async?.inFlight ?? [] { pending.append((id, generation)) }
        }
        guard !pending.isEmpty else { return [] }
        var starts: [NodeID: [Int: TurnNumber]] = [:]
        for sequence in turnSequences.reversed().prefix(Self.pendingSearchDepth) {
            guard let turn = try? turn(sequence) else { continue }
            for event in turn.events + turn.after {
                if case .generationStarted(let state, let generation, _) = event {
                    starts[state, default: [:]][generation] = sequence
                }
            }
            if pending.allSatisfy({ starts[$0.state]?[$0.generation] != nil }) { break }
        }
        return pending.map { item in
            PendingGeneration(
                state: item.state, label: states[item.state]?.label ?? "#\(item.state)", generation: item.generation,
                since: starts[item.state]?[item.generation])
        }.sorted { ($0.since ?? 0, $0.label) < ($1.since ?? 0, $1.label) }
    }

    /// The failures with how a test that never ended ended: a `died` failure for one cut short
    /// with nothing, and the work it waited on added to a crash's, a stop's or a death's message.
    /// Worked out once for the lines read so far.
    var failuresWithTestEnd: [TraceFailure] {
        let key = (contents.entries.count, contents.failures.count, trailer != nil)
        if let cached = testEndCache, cached.key == key { return cached.failures }
        var failures = contents.failures + (diedFailure.map { [$0] } ?? [])
        let ends: Set<TraceFailure.Kind> = [.crash, .terminated, .died]
        if isCutShortTest, failures.contains(where: { ends.contains($0.kind) }) {
            let waiting = pendingGenerationsAtEnd()
            if !waiting.isEmpty {
                let note = "; waiting on " + TracePendingGeneration.list(waiting)
                failures = failures.map { failure in
                    guard ends.contains(failure.kind) else { return failure }
                    return TraceFailure(
                        after: failure.after, test: failure.test, kind: failure.kind, message: failure.message + note,
                        file: failure.file, line: failure.line, signal: failure.signal)
                }
            }
        }
        testEndCache = (key, failures)
        return failures
    }
}
