import Foundation

/// Reads turn times from the recording clock, as nanoseconds since recording began. The
/// monotonic clock is read straight from the system and the offsets kept as integers: a turn
/// reads the clock twice, and `Duration`'s 128-bit arithmetic was a visible part of a
/// streamed turn's cost on the app's thread.
struct RecordingTimeline {
    private enum Source {
        /// The system's monotonic clock, read when recording began.
        case monotonic(startNanoseconds: Int)
        /// An injected clock (tests, reproducible recordings), as offsets already converted.
        case virtual(() -> Int)
    }

    private let source: Source

    init(_ clock: RecorderConfiguration.Clock) {
        switch clock {
        case .monotonic:
            source = .monotonic(startNanoseconds: Self.monotonicNanoseconds())
        case .virtual(let injected):
            source = .virtual(Self.offsets(of: injected))
        }
    }

    /// Whether the times come from an injected clock rather than the system's.
    var isVirtual: Bool {
        if case .virtual = source { return true }
        return false
    }

    /// Nanoseconds since recording began.
    func now() -> Int {
        switch source {
        case .monotonic(let start): Self.monotonicNanoseconds() - start
        case .virtual(let offset): offset()
        }
    }

    /// Whole microseconds in `nanoseconds`, as a trace records times.
    func microseconds(_ nanoseconds: Int) -> Int { nanoseconds / 1_000 }

    private static func monotonicNanoseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int(time.tv_sec) &* 1_000_000_000 &+ Int(time.tv_nsec)
    }

    private static func offsets<C: Clock>(of clock: C) -> () -> Int where C.Duration == Duration {
        let start = clock.now
        return {
            let (seconds, attoseconds) = start.duration(to: clock.now).components
            return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        }
    }
}
