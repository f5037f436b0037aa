import Foundation

/// State shared between the test and the runtime's tasks, behind a pthread mutex.
///
/// It does what `Synchronization.Mutex` does, but ThreadSanitizer sees pthread locks (it
/// intercepts them) and does not see `Mutex`'s futex, so with `Mutex` every guarded access was
/// reported as a race. Sendable is declared by hand: every read and write of `state` happens
/// inside `withLock`, between lock and unlock of the one mutex this object owns.
nonisolated package final class Locked<State>: @unchecked Sendable {
    private var state: State
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    package init(_ state: State) {
        self.state = state
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the state, holding the lock.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
