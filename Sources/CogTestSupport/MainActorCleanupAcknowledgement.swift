public import Cog

/// A one-shot signal that the runtime finished some MainActor work a test is waiting for: the
/// runtime calls `acknowledge()` when it gets there, and the test awaits `wait()`. The signal is
/// kept, so it may come before the test starts waiting. Use one per event.
nonisolated public final class MainActorCleanupAcknowledgement: Sendable {
    private let events: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let acknowledged = Locked(false)

    /// A signal not yet given.
    public init() {
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Whether the signal was given: for assertions; await `wait()` rather than polling it.
    public var hasBeenAcknowledged: Bool { acknowledged.withLock { $0 } }

    /// Gives the signal.
    @MainActor public func acknowledge() {
        acknowledged.withLock { $0 = true }
        continuation.yield()
    }

    /// Waits for the signal.
    /// - Throws: `CancellationError` when the waiting task is cancelled first.
    public func wait() async throws {
        var iterator = events.makeAsyncIterator()
        guard await iterator.next() != nil else { throw CancellationError() }
    }
}

extension Cogs {
    /// Signals once the next async result (success or failure) has been checked against its
    /// generation: published, or dropped as stale, cancelled or released.
    public func acknowledgeNextAsyncCompletionCheck(with acknowledgement: MainActorCleanupAcknowledgement) {
        acknowledgeNext(.asyncCompletionCheck) { acknowledgement.acknowledge() }
    }

    /// Signals once the next expired grace window has released its state (and what only that
    /// state held).
    public func acknowledgeNextAutomaticRelease(with acknowledgement: MainActorCleanupAcknowledgement) {
        acknowledgeNext(.automaticRelease) { acknowledgement.acknowledge() }
    }

    /// Signals once the next expired grace window has been checked, even when a lease, a UI pin
    /// or a reader kept the state.
    public func acknowledgeNextAutomaticReleaseCheck(with acknowledgement: MainActorCleanupAcknowledgement) {
        acknowledgeNext(.automaticReleaseCheck) { acknowledgement.acknowledge() }
    }

    /// Signals once this runtime's teardown has retired its mechanisms and broken its edges,
    /// when its last reference goes.
    public func acknowledgeDeinitCleanup(with acknowledgement: MainActorCleanupAcknowledgement) {
        acknowledgeNext(.deinitCleanup) { acknowledgement.acknowledge() }
    }

    /// Signals once a `c.track` observation has registered again after a change and written
    /// the new value.
    public func acknowledgeNextExternalObservationRearm(with acknowledgement: MainActorCleanupAcknowledgement) {
        acknowledgeNext(.externalObservationRearm) { acknowledgement.acknowledge() }
    }
}
