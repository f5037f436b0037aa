import CogTraceFormat
import Synchronization

/// The async generations a recorded runtime has started and not yet seen end, readable from any
/// thread: a test's watchdog asks it whether a test that makes no turns is waiting on work, and
/// names that work in the mark it leaves. Kept only when asked for (`CogRecorder.trackPendingWork`),
/// and updated only on generation events, which are rare beside the rest.
package final class PendingWork: Sendable {
    /// One generation in flight.
    package typealias Generation = TracePendingGeneration

    private let inFlight = Mutex<[Int: [Generation]]>([:])

    package init() {}

    func started(state: Int, label: String, generation: Int, since: Int) {
        let started = Generation(
            state: NodeID(rawValue: state), label: label, generation: generation, since: TurnNumber(since))
        inFlight.withLock { $0[state, default: []].append(started) }
    }

    func ended(state: Int, generation: Int) {
        inFlight.withLock { inFlight in
            inFlight[state]?.removeAll { $0.generation == generation }
            if inFlight[state]?.isEmpty == true { inFlight[state] = nil }
        }
    }

    /// The generations in flight now, oldest first.
    package var generations: [Generation] {
        inFlight.withLock { $0.values.flatMap { $0 } }.sorted { ($0.since ?? 0, $0.label) < ($1.since ?? 0, $1.label) }
    }
}
