/// The moments a test may ask to be told about, once each: points the runtime reaches on the
/// MainActor after work that starts elsewhere (a task's result, a clock's deadline, a deinit), so
/// a test can wait for a definite signal instead of sleeping or polling.
package enum CogAcknowledgementPoint: Hashable, Sendable {
    /// An async result reached its generation check: accepted, or dropped as stale.
    case asyncCompletionCheck
    /// An expired grace window released a state and what only it held.
    case automaticRelease
    /// An expired grace window was checked, whether or not it released anything.
    case automaticReleaseCheck
    /// The runtime's teardown finished.
    case deinitCleanup
    /// A `c.track` observation registered again after a change and wrote the new value.
    case externalObservationRearm
}

extension Graph {
    /// Calls `action` the next time the runtime reaches `point`, then forgets it.
    func acknowledgeNext(_ point: CogAcknowledgementPoint, _ action: @escaping () -> Void) {
        acknowledgements[point] = action
    }

    /// The runtime reached `point`: the waiting acknowledgement, if any, fires once.
    func reached(_ point: CogAcknowledgementPoint) {
        guard !acknowledgements.isEmpty, let action = acknowledgements.removeValue(forKey: point) else { return }
        action()
    }
}

extension Cogs {
    /// Calls `action` on the MainActor the next time the runtime reaches `point` (test support).
    package func acknowledgeNext(_ point: CogAcknowledgementPoint, _ action: @escaping () -> Void) {
        graph.acknowledgeNext(point, action)
    }
}
