/// One unused state's grace window on the injected clock: a task asleep until the deadline.
///
/// Each waiting state owns its own sleeper, as the public library's lifetime tests expect: a
/// renewal replaces the sleeper rather than adding one, a state that is held again cancels it,
/// and a release removes it. A window that ends early still reaches the MainActor as a negative
/// release decision, so a test waiting for the check is told that the state was kept.
final class GraceTimer {
    private var task: Task<Void, Never>?
    /// Whether a cancelled window still counts as a release check (kept, renewed) or not
    /// (released, torn down).
    private var reportsCheckWhenCancelled = false

    nonisolated deinit {}

    /// Sleeps until `deadline` on the graph's clock, then lets the graph release what is due.
    init(until deadline: Duration, in graph: Graph) {
        let sleepUntil = graph.clock.sleepUntil
        task = Task { [lifeline = graph.lifeline, self] in
            let expired = (try? await sleepUntil(deadline)) != nil
            guard let graph = lifeline.current else { return }
            if expired {
                graph.expireDueStates()
            } else if reportsCheckWhenCancelled {
                graph.reached(.automaticReleaseCheck)
            }
            task = nil
        }
    }

    /// Ends the window before its deadline; `reportingCheck` says whether that decided to keep
    /// the state (it is held again, or renewed) rather than to let it go.
    func cancel(reportingCheck: Bool) {
        reportsCheckWhenCancelled = reportingCheck
        task?.cancel()
    }
}
