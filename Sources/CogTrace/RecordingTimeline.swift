/// Reads turn times from the recording clock, as offsets from when recording began.
struct RecordingTimeline {
    let now: () -> Duration
    let isVirtual: Bool

    init(_ clock: RecorderConfiguration.Clock) {
        switch clock {
        case .monotonic:
            let continuous = ContinuousClock()
            let start = continuous.now
            now = { start.duration(to: continuous.now) }
            isVirtual = false
        case .virtual(let injected):
            now = Self.offsets(of: injected)
            isVirtual = true
        }
    }

    private static func offsets<C: Clock>(of clock: C) -> () -> Duration where C.Duration == Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }

    /// Whole microseconds in `duration`.
    func microseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1_000_000 + Int(attoseconds / 1_000_000_000_000)
    }
}
