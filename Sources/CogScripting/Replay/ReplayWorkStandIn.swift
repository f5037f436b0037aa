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

    /// Generations waiting for an answer, oldest first, by state label. The newest is answered:
    /// under `.latest` the older ones are being superseded, and the other policies run one at a time.
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

    /// Answers the newest waiting generation of `label` with `outcome`; false when none waits.
    func answer(_ label: String, with outcome: ReplayOutcome) -> Bool {
        guard var waiting = parked[label], let last = waiting.popLast() else { return false }
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
