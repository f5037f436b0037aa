/// What a running generation's work can learn about itself: which runtime runs it, and how many
/// of its events the runtime has handled. `CogTesting`'s controlled work uses it to wait until a
/// result it delivered has been published, so async tests need no sleeps.
package final class AsyncRunContext: Sendable {
    /// The context of the generation whose work is running in this task.
    @TaskLocal package static var current: AsyncRunContext?

    /// The generation's number within its state.
    package let generation: Int
    /// The state's label, e.g. `weather.forecast[10001]`.
    package let label: String
    private let progress: Progress

    init(generation: Int, label: String) {
        self.generation = generation
        self.label = label
        self.progress = Progress()
    }

    /// Called by the runtime after it handled one event of this generation (a result, an element,
    /// an end, an error, or a rejection).
    func didHandleEvent() {
        progress.advance()
    }

    /// Waits until the runtime has handled at least `count` events of this generation.
    package func waitForHandledEvents(_ count: Int) async {
        await progress.wait(until: count)
    }
}

/// A MainActor counter with waiters.
private final class Progress: Sendable {
    @MainActor private var handled = 0
    @MainActor private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    @MainActor func advance() {
        handled += 1
        let ready = waiters.filter { $0.count <= handled }
        waiters.removeAll { $0.count <= handled }
        for waiter in ready { waiter.continuation.resume() }
    }

    @MainActor func wait(until count: Int) async {
        if handled >= count { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }
}
