public import Cog

/// A clock a test moves by hand: sleepers wake only when `advance` passes their deadline, and
/// `sleeperCount` / `waitForSleepers` tell a test when a task has gone back to sleep, so timed
/// code runs deterministically with no real waiting.
///
/// ```swift
/// let clock = TestClock()
/// let cogs = Cogs.forTesting(mechanisms: [HikeTimerMechanism(clock: clock)])
/// await clock.waitForSleepers(1)
/// clock.advance(by: .seconds(1))
/// await clock.waitForSleepers(1)   // the tick ran and the task sleeps again
/// ```
nonisolated public final class TestClock: Clock, SleepBookingClock, Sendable {
    /// A point on the test clock: the time advanced since it was created.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// Time since the clock was created.
        public let offset: Duration

        /// A point `offset` after the clock's start.
        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        public var description: String { "\(offset)" }
    }

    /// A task asleep until `deadline`, or a booking no task has claimed yet (no continuation).
    private struct Sleeper {
        let id: Int
        let deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>?
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var nextSleeperID = 0
        var sleeperWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// The most tasks that slept at once.
        var mostSleepers = 0
        /// Sleeps registered that no `waitForScheduledSleep` has taken yet.
        var untakenSchedules = 0
        var scheduleWaiters: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
        /// Bookings whose deadline passed before a task claimed them.
        var passedBookings: Set<Int> = []
        /// Whether `finish()` ended the clock: no sleep is accepted any more.
        var isFinished = false
        /// Runtimes that book their grace windows only when asked (`bookPendingSleeps`).
        var pendingSources: [any PendingSleepSource] = []
    }

    /// `waitForScheduledSleep(within:)` saw no new sleep before its budget ran out.
    public struct WaitTimeout: Error, CustomStringConvertible, Sendable {
        public var description: String { "no task went to sleep on the test clock within the wait's budget" }
        public init() {}
    }

    private let state = Locked(State())
    /// `State.now`, readable without the lock: the runtime reads the time on every lease renewal.
    private let publishedNow = PublishedDuration(.zero)

    /// A clock at offset zero with no sleepers.
    public init() {}

    public var now: Instant { Instant(offset: publishedNow.load()) }

    /// The time advanced since the clock was created, as the runtime reads it.
    package var elapsed: Duration { publishedNow.load() }
    public var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on this clock now, a runtime's open grace windows included.
    public var sleeperCount: Int {
        bookPendingSleeps()
        return state.withLock { $0.sleepers.count }
    }

    /// How many tasks are sleeping on this clock now (the public library's name).
    public var activeSleeperCount: Int { sleeperCount }

    /// The most tasks that were ever asleep on this clock at once: a test that expects one timer
    /// can check that no second one was started beside it.
    public var maximumActiveSleeperCount: Int {
        bookPendingSleeps()
        return state.withLock { $0.mostSleepers }
    }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> Int in
            defer { state.nextSleeperID += 1 }
            return state.nextSleeperID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (outcome, ready, scheduled) = state.withLock {
                    state -> (
                        Result<Void, any Error>?, [CheckedContinuation<Void, Never>],
                        CheckedContinuation<Void, any Error>?
                    ) in
                    if state.isFinished { return (.failure(CancellationError()), [], nil) }
                    if deadline <= state.now { return (.success(()), [], nil) }
                    let (ready, scheduled) = Self.register(
                        Sleeper(id: id, deadline: deadline, continuation: continuation), in: &state)
                    return (nil, ready, scheduled)
                }
                if let outcome { continuation.resume(with: outcome) }
                for waiter in ready { waiter.resume() }
                scheduled?.resume()
            }
        } onCancel: {
            cancelBooking(id)
        }
    }

    /// Books a sleep of `duration` from now: it counts as a sleeper and a scheduled sleep at once,
    /// and `sleep(onBooking:)` claims it later. The runtime books its open grace windows this way
    /// when this clock asks for them (`bookPendingSleeps`), and reports the ones that closed before
    /// then through `noteUnbookedSleeps`, so `waitForScheduledSleep` sees every window.
    package func bookSleep(for duration: Duration) -> Int {
        let (ready, scheduled, ticket) = state.withLock {
            state -> ([CheckedContinuation<Void, Never>], CheckedContinuation<Void, any Error>?, Int) in
            let ticket = state.nextSleeperID
            state.nextSleeperID += 1
            // A finished clock keeps no booking, so claiming it throws.
            if state.isFinished { return ([], nil, ticket) }
            let deadline = state.now.advanced(by: duration)
            guard deadline > state.now else {
                state.passedBookings.insert(ticket)
                return ([], nil, ticket)
            }
            let (ready, scheduled) = Self.register(Sleeper(id: ticket, deadline: deadline), in: &state)
            return (ready, scheduled, ticket)
        }
        for waiter in ready { waiter.resume() }
        scheduled?.resume()
        return ticket
    }

    /// Sleeps on the booking `ticket` until its deadline, returning at once when `advance` has
    /// passed it already.
    /// - Throws: `CancellationError` when the booking was withdrawn, the clock finished, or the
    ///   task is cancelled.
    package func sleep(onBooking ticket: Int) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if state.passedBookings.remove(ticket) != nil { return .success(()) }
                    guard
                        let index = state.sleepers.firstIndex(where: { $0.id == ticket && $0.continuation == nil })
                    else { return .failure(CancellationError()) }
                    state.sleepers[index].continuation = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            cancelBooking(ticket)
        }
    }

    /// Withdraws the sleep `ticket` names: a task asleep on it wakes with `CancellationError`.
    package func cancelBooking(_ ticket: Int) {
        let sleeper = state.withLock { state -> Sleeper? in
            state.passedBookings.remove(ticket)
            guard let index = state.sleepers.firstIndex(where: { $0.id == ticket }) else { return nil }
            return state.sleepers.remove(at: index)
        }
        sleeper?.continuation?.resume(throwing: CancellationError())
    }

    /// Counts sleeps a runtime opened and closed before it booked them, as scheduled sleeps.
    package func noteUnbookedSleeps(count: Int, peak: Int) {
        let scheduled = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            guard !state.isFinished else { return [] }
            state.mostSleepers = max(state.mostSleepers, state.sleepers.count + peak)
            let taken = min(count, state.scheduleWaiters.count)
            state.untakenSchedules += count - taken
            defer { state.scheduleWaiters.removeFirst(taken) }
            return state.scheduleWaiters.prefix(taken).map(\.continuation)
        }
        for waiter in scheduled { waiter.resume() }
    }

    /// Adds a runtime that books its grace windows when this clock asks.
    package func addPendingSleepSource(_ source: any PendingSleepSource) {
        state.withLock { $0.pendingSources.append(source) }
    }

    /// Asks each runtime on this clock to book the windows it opened since it last booked, so
    /// what the clock answers or wakes includes them; forgets the runtimes that are gone.
    private func bookPendingSleeps() {
        let sources = state.withLock { $0.pendingSources }
        guard !sources.isEmpty else { return }
        let gone = sources.filter { !$0.bookPendingSleeps() }.map(ObjectIdentifier.init)
        guard !gone.isEmpty else { return }
        state.withLock { $0.pendingSources.removeAll { gone.contains(ObjectIdentifier($0)) } }
    }

    /// Moves time forward and wakes, in deadline order, every sleeper whose deadline has passed.
    /// - Returns: how many sleepers woke.
    @discardableResult
    public func advance(by duration: Duration) -> Int {
        bookPendingSleeps()
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            publishedNow.store(state.now.offset)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            for booking in due where booking.continuation == nil { state.passedBookings.insert(booking.id) }
            return due
        }
        for sleeper in due { sleeper.continuation?.resume() }
        return due.count
    }

    /// Waits until at least `count` tasks are sleeping on this clock.
    public func waitForSleepers(_ count: Int) async {
        bookPendingSleeps()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.sleeperWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Waits until a task goes to sleep on this clock: each sleep registered is taken by one
    /// wait, so a sleep that happened before the call counts. `budget` is real time and only a
    /// bound, so a timer that never comes fails the test instead of hanging it.
    /// - Throws: `WaitTimeout` when no sleep came within `budget`; `CancellationError` when the
    ///   wait or the clock was cancelled.
    public func waitForScheduledSleep(within budget: Duration = .seconds(5)) async throws {
        // Here, on the caller's actor: the waiting task below runs elsewhere.
        bookPendingSleeps()
        let scheduled = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await self.takeScheduledSleep()
                return true
            }
            group.addTask {
                try await Task.sleep(for: budget)
                return false
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        guard scheduled else { throw WaitTimeout() }
    }

    /// Cancels every sleeper (each sleep throws `CancellationError`) and refuses new sleeps; a
    /// second call does nothing.
    public func finish() {
        let (sleepers, waiters) = state.withLock { state -> ([Sleeper], [CheckedContinuation<Void, any Error>]) in
            guard !state.isFinished else { return ([], []) }
            state.isFinished = true
            defer {
                state.sleepers.removeAll()
                state.passedBookings.removeAll()
                state.scheduleWaiters.removeAll()
                state.untakenSchedules = 0
            }
            return (state.sleepers, state.scheduleWaiters.map(\.continuation))
        }
        for sleeper in sleepers { sleeper.continuation?.resume(throwing: CancellationError()) }
        for waiter in waiters { waiter.resume(throwing: CancellationError()) }
    }

    /// Takes one registered sleep, waiting for the next when none is untaken.
    private func takeScheduledSleep() async throws {
        bookPendingSleeps()
        let id = state.withLock { state -> Int in
            defer { state.nextSleeperID += 1 }
            return state.nextSleeperID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if state.isFinished || Task.isCancelled { return .failure(CancellationError()) }
                    if state.untakenSchedules > 0 {
                        state.untakenSchedules -= 1
                        return .success(())
                    }
                    state.scheduleWaiters.append((id, continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.scheduleWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.scheduleWaiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Adds a sleeper and counts it as a scheduled sleep; returns the waiters it satisfies.
    private static func register(
        _ sleeper: Sleeper, in state: inout State
    ) -> ([CheckedContinuation<Void, Never>], CheckedContinuation<Void, any Error>?) {
        state.sleepers.append(sleeper)
        state.mostSleepers = max(state.mostSleepers, state.sleepers.count)
        var scheduled: CheckedContinuation<Void, any Error>?
        if state.scheduleWaiters.isEmpty {
            state.untakenSchedules += 1
        } else {
            scheduled = state.scheduleWaiters.removeFirst().continuation
        }
        return (takeReadyWaiters(&state), scheduled)
    }

    private static func takeReadyWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleepers.count
        let ready = state.sleeperWaiters.filter { $0.count <= count }.map(\.continuation)
        state.sleeperWaiters.removeAll { $0.count <= count }
        return ready
    }
}
