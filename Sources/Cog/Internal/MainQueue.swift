import Dispatch

/// Whether code runs where the MainActor's jobs run, asked without trapping. The MainActor's
/// executor is the main dispatch queue, which worker threads drain once the main thread parks in
/// `dispatchMain()` (as Swift Testing's runner does on Linux), so the calling thread cannot tell;
/// a value set on the main queue can, since a queue's values are read from the queue running.
nonisolated enum MainQueue {
    /// Marks the main queue, the first time the question is asked.
    ///
    /// Sendable by hand: the key is an identity with no state of its own that Dispatch compares
    /// by address; it is made once, under the lazy global's one-time initialisation.
    private struct Marker: @unchecked Sendable {
        let key = DispatchSpecificKey<Bool>()
    }

    private static let marker: Marker = {
        let marker = Marker()
        DispatchQueue.main.setSpecific(key: marker.key, value: true)
        return marker
    }()

    /// True while the main queue, hence the MainActor's executor, runs the caller.
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: marker.key) == true }
}
