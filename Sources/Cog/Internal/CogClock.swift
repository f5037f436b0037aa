/// The runtime's view of its injected clock: time as an offset from when the runtime started,
/// so deadlines are plain durations whatever the clock's instant type.
struct CogClock {
    let now: () -> Duration
    let sleepUntil: @Sendable (Duration) async throws -> Void
    /// Set for a clock that books sleeps ahead (the test clock); nil for every other clock.
    let bookings: SleepBookings?
    /// Whether `bookings` is set: what the hot paths test, without copying it.
    let booksSleeps: Bool

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let booking = clock as? any SleepBookingClock
        bookings = booking.map(SleepBookings.init)
        booksSleeps = booking != nil
        // The default clock and the test clock get closures of their own type: through the
        // generic ones, reading the time (every lease renewal does) cost several hundred
        // instructions of boxing, several times the read itself.
        if let continuous = clock as? ContinuousClock {
            let start = continuous.now
            now = { start.duration(to: .now) }
            sleepUntil = { offset in try await continuous.sleep(until: start.advanced(by: offset), tolerance: nil) }
            return
        }
        let start = clock.now
        if let booking {
            let elapsedAtStart = booking.elapsed
            now = { booking.elapsed - elapsedAtStart }
        } else {
            now = { start.duration(to: clock.now) }
        }
        sleepUntil = { offset in try await clock.sleep(until: start.advanced(by: offset), tolerance: nil) }
    }
}

/// A clock that can take a sleep booked before any task sleeps on it: the booking counts as a
/// sleeper at once, and a task claims it later. The test clock is one, so a test that counts
/// scheduled sleeps sees each grace window, as the public library's lifetime tests count them,
/// even a window that closes before the runtime's sleeper task runs.
///
/// A runtime books its windows lazily: it registers once as a source of pending sleeps, and the
/// clock asks it to book what is pending before it answers about its sleepers or moves. A test
/// that never asks pays for no booking.
nonisolated package protocol SleepBookingClock: Sendable {
    /// The time since the clock started, read without a lock.
    var elapsed: Duration { get }
    /// Books a sleep of `duration` from now and returns its ticket.
    func bookSleep(for duration: Duration) -> Int
    /// Sleeps on the booking `ticket` until its deadline; returns at once when the deadline has
    /// passed already.
    /// - Throws: `CancellationError` when the booking was cancelled, or the task is.
    func sleep(onBooking ticket: Int) async throws
    /// Withdraws the booking `ticket`: a task asleep on it is woken with `CancellationError`.
    func cancelBooking(_ ticket: Int)
    /// Counts `count` sleeps that opened and closed (or were replaced) before the clock asked
    /// for them as scheduled sleeps; at most `peak` of the source's unbooked sleeps were open at
    /// once, beside the sleepers the clock holds now.
    func noteUnbookedSleeps(count: Int, peak: Int)
    /// Adds a source the clock asks to book its pending sleeps before it answers or moves.
    func addPendingSleepSource(_ source: any PendingSleepSource)
}

/// Something that opens sleeps on a booking clock without booking them at once (a runtime's
/// grace windows).
nonisolated package protocol PendingSleepSource: AnyObject, Sendable {
    /// Books every sleep opened and not booked yet, when the caller is on the thread the source
    /// runs on; elsewhere it does nothing, and the source books them itself once that thread is
    /// free. Called without the clock's lock held.
    /// - Returns: false once the source is gone for good, so the clock can forget it.
    func bookPendingSleeps() -> Bool
}

/// A booking clock's operations, typed for the runtime; a class, so holding it costs one retain.
final class SleepBookings {
    let book: (Duration) -> Int
    let sleep: @Sendable (Int) async throws -> Void
    let cancel: (Int) -> Void
    let noteUnbooked: (_ count: Int, _ peak: Int) -> Void
    let addSource: (any PendingSleepSource) -> Void

    init(_ clock: any SleepBookingClock) {
        book = { clock.bookSleep(for: $0) }
        sleep = { try await clock.sleep(onBooking: $0) }
        cancel = { clock.cancelBooking($0) }
        noteUnbooked = { clock.noteUnbookedSleeps(count: $0, peak: $1) }
        addSource = { clock.addPendingSleepSource($0) }
    }
}
