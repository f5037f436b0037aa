import Foundation

/// Where a streamed run's time goes, phase by phase (medians in milliseconds): making the
/// runtime and the recorder and starting the stream, the turns (`StreamTiming.appThread`),
/// `finishStreaming` until the file is complete, and releasing the runtime and the recorder
/// after it; with the untraced runs' release of their runtime, the one phase both kinds of run
/// have. The ratio says how much a stream costs; these say which part of it moved
/// (docs/performance.md, "Recorder and streaming").
struct StreamPhases {
    let start: Measurement
    let finish: Measurement
    let teardown: Measurement
    let untracedTeardown: Measurement

    init(_ samples: PhaseSamples, section: String, name: String) {
        start = samples.summary(\.start, section: section, name: name, variant: "stream, start")
        finish = samples.summary(\.finish, section: section, name: name, variant: "stream, finish")
        teardown = samples.summary(\.teardown, section: section, name: name, variant: "stream, teardown")
        untracedTeardown = samples.summary(
            \.untracedTeardown, section: section, name: name, variant: "untraced, teardown")
    }

    /// The phases that were timed; none when the streamed runs were not.
    var measurements: [Measurement] { [start, finish, teardown, untracedTeardown].filter { $0.count > 0 } }
}

/// Each run's phases, in milliseconds, in the order the runs were made; the first of each is the
/// warm-up run's, which the summaries leave out as `measureInterleaved` does.
struct PhaseSamples {
    var start: [Double] = []
    var turns: [Double] = []
    var finish: [Double] = []
    var teardown: [Double] = []
    var untracedTeardown: [Double] = []

    /// Adds a streamed run's phases from the clock's readings between them.
    mutating func add(
        began: ContinuousClock.Instant, started: ContinuousClock.Instant, ran: ContinuousClock.Instant,
        finished: ContinuousClock.Instant, released: ContinuousClock.Instant
    ) {
        start.append((started - began).milliseconds)
        turns.append((ran - started).milliseconds)
        finish.append((finished - ran).milliseconds)
        teardown.append((released - finished).milliseconds)
    }

    /// The statistics of one phase's timed runs; a measurement with no figures (count 0, never
    /// written to JSON) when there were none.
    func summary(
        _ phase: KeyPath<PhaseSamples, [Double]>, section: String, name: String, variant: String
    ) -> Measurement {
        let timed = Array(self[keyPath: phase].dropFirst())
        guard !timed.isEmpty else {
            return Measurement(
                section: section, name: name, variant: variant, unit: "ms", median: .nan, min: .nan, max: .nan,
                count: 0)
        }
        return Measurement(section: section, name: name, variant: variant, samples: timed)
    }
}
