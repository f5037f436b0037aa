import Synchronization

/// A duration written under a lock and read without one: the test clock's time, which the
/// runtime reads on every lease renewal (each `peek` of an unused state) and a test moves only
/// by `advance`.
///
/// A sequence lock over the duration's two words: a writer makes the sequence odd, stores both,
/// and makes it even again; a reader retries until it sees the same even sequence before and
/// after reading both. Writers must not race each other (the clock writes under its lock).
nonisolated package final class PublishedDuration: Sendable {
    private let sequence = Atomic<Int>(0)
    private let high: Atomic<Int64>
    private let low: Atomic<UInt64>

    package init(_ duration: Duration) {
        high = Atomic(duration._high)
        low = Atomic(duration._low)
    }

    /// The duration last stored.
    package func load() -> Duration {
        while true {
            let before = sequence.load(ordering: .acquiring)
            guard before & 1 == 0 else { continue }
            let value = Duration(_high: high.load(ordering: .acquiring), low: low.load(ordering: .acquiring))
            if sequence.load(ordering: .acquiring) == before { return value }
        }
    }

    /// Stores `duration`; callers are serialised by a lock of their own.
    package func store(_ duration: Duration) {
        sequence.add(1, ordering: .acquiringAndReleasing)
        high.store(duration._high, ordering: .releasing)
        low.store(duration._low, ordering: .releasing)
        sequence.add(1, ordering: .acquiringAndReleasing)
    }
}
