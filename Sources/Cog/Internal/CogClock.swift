/// The runtime's view of its injected clock: time as an offset from when the runtime started,
/// so deadlines are plain durations whatever the clock's instant type.
struct CogClock {
    let now: () -> Duration
    let sleepUntil: @Sendable (Duration) async throws -> Void
    /// Set for a clock that books sleeps ahead (the test clock); nil for every other clock.
    let bookings: SleepBookings?

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        bookings = (clock as? any SleepBookingClock).map(SleepBookings.init)
        // The default clock gets closures of its own type: through the generic ones, reading it
        // (every lease renewal does) cost several times the system call.
        if let continuous = clock as? ContinuousClock {
            let start = continuous.now
            now = { start.duration(to: .now) }
            sleepUntil = { offset in try await continuous.sleep(until: start.advanced(by: offset), tolerance: nil) }
            return
        }
        let start = clock.now
        now = { start.duration(to: clock.now) }
        sleepUntil = { offset in try await clock.sleep(until: start.advanced(by: offset), tolerance: nil) }
    }
}

/// A clock that can take a sleep booked before any task sleeps on it: the booking counts as a
/// sleeper at once, and a task claims it later. The test clock is one, so a test that counts
/// scheduled sleeps sees each grace window when it opens, as the public library's lifetime tests
/// count them, even a window that closes before the runtime's sleeper task runs.
nonisolated package protocol SleepBookingClock: Sendable {
    /// Books a sleep of `duration` from now and returns its ticket.
    func bookSleep(for duration: Duration) -> Int
    /// Sleeps on the booking `ticket` until its deadline; returns at once when the deadline has
    /// passed already.
    /// - Throws: `CancellationError` when the booking was cancelled, or the task is.
    func sleep(onBooking ticket: Int) async throws
    /// Withdraws the booking `ticket`: a task asleep on it is woken with `CancellationError`.
    func cancelBooking(_ ticket: Int)
}

/// A booking clock's three operations, typed for the runtime.
struct SleepBookings {
    let book: (Duration) -> Int
    let sleep: @Sendable (Int) async throws -> Void
    let cancel: (Int) -> Void

    init(_ clock: any SleepBookingClock) {
        book = { clock.bookSleep(for: $0) }
        sleep = { try await clock.sleep(onBooking: $0) }
        cancel = { clock.cancelBooking($0) }
    }
}
