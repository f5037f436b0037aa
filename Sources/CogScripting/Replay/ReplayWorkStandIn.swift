import Cog
import CogTrace

/// Answers a replayed runtime's async generations with the recording's outcomes: each
/// generation waits, parked by its state's label, until replay feeds the completion the
/// recording shows for that state. No work runs: no network, no clock.
final class ReplayWorkStandIn: CogWorkStandIn {
    private struct Parked {
        let generation: Int
        /// Resumed with the recorded value's structured form (nil inside for a value kept as text only).
        let continuation: CheckedContinuation<StructuredValue?, any Error>
    }

    /// Generations waiting for an answer, oldest first, by state label. An answer goes to the
    /// generation the recording says produced it; without one, to the newest (under `.latest`
    /// the older ones are being superseded, and `.queue` runs one at a time).
    private var parked: [String: [Parked]] = [:]
    /// How many generations have started waiting, ever (a waiter that is cancelled is removed).
    private(set) var startedCount = 0

    func next(for label: String, generation: Int) async throws -> (any CogRecordedValueDecoder)? {
        startedCount += 1
        let value = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                parked[label, default: []].append(Parked(generation: generation, continuation: continuation))
            }
        } onCancel: {
            Task { @MainActor in self.cancel(label: label, generation: generation) }
        }
        return RecordedValueDecoder(value: value?.json)
    }

    /// Whether a generation of `label` is waiting.
    func isWaiting(_ label: String) -> Bool { !(parked[label] ?? []).isEmpty }

    /// Answers generation `generation` of `label` with `outcome` when it waits (overlapping runs
    /// under `.merged` answer in any order), else the newest waiting; false when none waits.
    func answer(_ label: String, generation: Int? = nil, with outcome: ReplayOutcome) -> Bool {
        guard var waiting = parked[label], !waiting.isEmpty else { return false }
        let index = generation.flatMap { number in waiting.lastIndex { $0.generation == number } } ?? waiting.count - 1
        let last = waiting.remove(at: index)
        parked[label] = waiting.isEmpty ? nil : waiting
        switch outcome {
        case .success(let value):
            last.continuation.resume(returning: value)
        case .failure(let message):
            last.continuation.resume(throwing: ReplayedFailure(message))
        }
        return true
    }

    /// Ends a generation the runtime cancelled (superseded, released) with the cancellation.
    private func cancel(label: String, generation: Int) {
        guard let index = parked[label]?.firstIndex(where: { $0.generation == generation }) else { return }
        let waiter = parked[label]!.remove(at: index)
        if parked[label]!.isEmpty { parked[label] = nil }
        waiter.continuation.resume(throwing: CancellationError())
    }
}
