/// One unused state's grace window on the injected clock: a task asleep until the deadline.
///
/// Each waiting state owns its own sleeper, as the public library's lifetime tests expect: a
/// renewal replaces the sleeper rather than adding one, a state that is held again cancels it,
/// and a release removes it. A window that ends early still reaches the MainActor as a negative
/// release decision, so a test waiting for the check is told that the state was kept.
///
/// The task reads its state's deadline only when it starts, so renewals made before then move
/// the deadline without replacing the task; only a sleeper already asleep is replaced. On a clock
/// that books sleeps (the test clock) the task sleeps on its window's booking, booking what is
/// pending first (`Graph+GraceBooking.swift`).
final class GraceTimer {
    private var task: Task<Void, Never>?
    /// Whether the task has read its deadline and gone to sleep on the clock.
    private(set) var isAsleep = false
    /// Whether a cancelled window still counts as a release check (kept, renewed) or not
    /// (released, torn down).
    private var reportsCheckWhenCancelled = false

    nonisolated deinit {}

    /// Sleeps until `node`'s grace deadline as it stands when the task starts, then lets the
    /// graph release what is due.
    init(for node: Node, in graph: Graph) {
        let sleepUntil = graph.clock.sleepUntil
        let sleepOnBooking = graph.clock.bookings?.sleep
        task = Task { [lifeline = graph.lifeline, self] in
            guard node.graceTimer === self, let deadline = node.graceDeadline, !Task.isCancelled else {
                return finish(in: lifeline.current, expired: false)
            }
            isAsleep = true
            let expired: Bool
            if let sleepOnBooking, let graph = lifeline.current {
                graph.bookPendingGraceWindows()
                expired = (try? await sleepOnBooking(node.graceBooking)) != nil
            } else {
                expired = (try? await sleepUntil(deadline)) != nil
            }
            finish(in: lifeline.current, expired: expired)
        }
    }

    private func finish(in graph: Graph?, expired: Bool) {
        task = nil
        guard let graph else { return }
        if expired {
            graph.expireDueStates()
        } else if reportsCheckWhenCancelled {
            graph.reached(.automaticReleaseCheck)
        }
    }

    /// Ends the window before its deadline; `reportingCheck` says whether that decided to keep
    /// the state (it is held again, or renewed) rather than to let it go.
    func cancel(reportingCheck: Bool) {
        reportsCheckWhenCancelled = reportingCheck
        task?.cancel()
    }
}
