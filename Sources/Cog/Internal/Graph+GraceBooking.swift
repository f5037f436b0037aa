/// Grace windows on a clock that books sleeps (the test clock), booked lazily.
///
/// A test may count the sleeps the runtime schedules (`TestClock.waitForScheduledSleep`,
/// `activeSleeperCount`), so every window must be a sleep on that clock, even one that closes
/// before the runtime's sleeper task runs. Booking each window as it opens cost a lock, a
/// dictionary entry and a task per window in every test, watched or not. Instead the runtime
/// counts the windows it opens and closes unbooked, and books them only when the clock asks
/// (before it answers about its sleepers or moves) or when its sleepers are armed, once the
/// MainActor is free. A window that opened and closed unbooked is reported as a scheduled sleep
/// then, so the counts a test sees are those of booking at once.
struct UnbookedGraceWindows {
    /// Windows opened (a renewal included: it is a sleep of its own) since the last booking.
    var opened = 0
    /// Windows open now and not booked.
    var open = 0
    /// The most that were open and unbooked at once since the last booking.
    var peak = 0
}

extension Graph {
    /// A grace window opened on `node`, on a booking clock; `wasWaiting` says it replaces an open
    /// one. A booked window is withdrawn: its replacement is booked with the rest.
    func noteGraceWindowOpened(_ node: Node, wasWaiting: Bool) {
        if node.graceBooking >= 0 {
            clock.bookings?.cancel(node.graceBooking)
            node.graceBooking = -1
            unbookedGrace.open += 1
        } else if !wasWaiting {
            unbookedGrace.open += 1
        }
        unbookedGrace.opened += 1
        unbookedGrace.peak = max(unbookedGrace.peak, unbookedGrace.open)
    }

    /// `node`'s open window closed (held again, released or torn down), on a booking clock.
    func noteGraceWindowClosed(_ node: Node) {
        if node.graceBooking >= 0 {
            clock.bookings?.cancel(node.graceBooking)
            node.graceBooking = -1
        } else {
            unbookedGrace.open -= 1
        }
    }

    /// Books every open window not booked yet, earliest deadline first, after telling the clock
    /// how many opened and closed unseen.
    func bookPendingGraceWindows() {
        guard unbookedGrace.opened > 0, let bookings = clock.bookings else { return }
        let pending = graceWaiting.filter { $0.graceBooking < 0 }
        let unseen = unbookedGrace.opened - pending.count
        if unseen > 0 { bookings.noteUnbooked(unseen, unbookedGrace.peak) }
        unbookedGrace = UnbookedGraceWindows()
        let now = clock.now()
        for node in pending.sorted(by: { ($0.graceDeadline!, $0.id) < ($1.graceDeadline!, $1.id) }) {
            node.graceBooking = bookings.book(node.graceDeadline! - now)
        }
    }
}

extension GraphLifeline: PendingSleepSource {
    /// Books the graph's pending windows when called on the MainActor, where the graph lives; a
    /// caller elsewhere races the MainActor anyway, and the graph books them itself once the
    /// MainActor is free (`armGraceTimers`). Which thread runs the MainActor's jobs can change
    /// from one job to the next (`MainQueue`), so the question is asked of the queue.
    nonisolated func bookPendingSleeps() -> Bool {
        guard MainQueue.isCurrent else { return true }
        return MainActor.assumeIsolated {
            guard let graph = current else { return false }
            graph.bookPendingGraceWindows()
            return true
        }
    }
}
