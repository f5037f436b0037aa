import Synchronization

/// The async generations a recorded runtime has started and not yet seen end, readable from any
/// thread: a test's watchdog asks it whether a test that makes no turns is waiting on work, and
/// names that work in the mark it leaves. Kept only when asked for (`CogRecorder.trackPendingWork`),
/// and updated only on generation events, which are rare beside the rest.
package final class PendingWork: Sendable {
    /// One generation in flight.
    package struct Generation: Sendable, Equatable {
        /// The state's label, with its key.
        package let label: String
        package let generation: Int
        /// The last turn that had ended when it started.
        package let since: Int

        package init(label: String, generation: Int, since: Int) {
            self.label = label
            self.generation = generation
            self.since = since
        }
    }

    private let inFlight = Mutex<[Int: [Generation]]>([:])

    package init() {}

    func started(state: Int, label: String, generation: Int, since: Int) {
        inFlight.withLock {
            $0[state, default: []].append(Generation(label: label, generation: generation, since: since))
        }
    }

    func ended(state: Int, generation: Int) {
        inFlight.withLock { inFlight in
            inFlight[state]?.removeAll { $0.generation == generation }
            if inFlight[state]?.isEmpty == true { inFlight[state] = nil }
        }
    }

    /// The generations in flight now, oldest first.
    package var generations: [Generation] {
        inFlight.withLock { $0.values.flatMap { $0 } }.sorted { ($0.since, $0.label) < ($1.since, $1.label) }
    }
}
