/// The runtime's view of its injected clock: time as an offset from when the runtime started,
/// so deadlines are plain durations whatever the clock's instant type.
struct CogClock {
    let now: () -> Duration
    let sleepUntil: @Sendable (Duration) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        now = { start.duration(to: clock.now) }
        sleepUntil = { offset in try await clock.sleep(until: start.advanced(by: offset), tolerance: nil) }
    }
}
