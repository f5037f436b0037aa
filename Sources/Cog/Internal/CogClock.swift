/// The runtime's view of its injected clock: time as an offset from when the runtime started,
/// so deadlines are plain durations whatever the clock's instant type.
struct CogClock {
    let now: () -> Duration
    let sleepUntil: @Sendable (Duration) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
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
