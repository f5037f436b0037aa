import Foundation
import Testing

@testable import CogBench

/// A streamed run's phases are timed in the same runs as the stream itself, one figure per timed
/// run, and together fit inside it.
@Suite("Stream phases")
struct StreamPhasesTests {
    @Test func everyPhaseIsTimedOncePerRun() {
        let timing = StreamTiming(KairoUnstable(turns: 20), section: "recorder", iterations: 3, files: StreamFiles())
        let phases = timing.phases
        #expect(
            phases.measurements.map(\.variant) == [
                "stream, start", "stream, finish", "stream, teardown", "untraced, teardown",
            ])
        for measurement in phases.measurements + [timing.appThread] {
            #expect(measurement.count == 3, "\(measurement.variant)")
            #expect(measurement.unit == "ms")
            #expect(
                measurement.min >= 0 && measurement.min <= measurement.median && measurement.median <= measurement.max)
        }
        // The turns and finishing are real work; each run's phases are read between the ends
        // of the timed run, so the quickest of them all fits inside the slowest streamed run.
        #expect(timing.appThread.min > 0)
        #expect(phases.finish.min > 0)
        let quickest = [phases.start, timing.appThread, phases.finish, phases.teardown].map(\.min).reduce(0, +)
        #expect(quickest <= timing.stream.max)
    }

    @Test func phasesAreLeftOutWhenNothingWasStreamed() {
        let timing = StreamTiming(KairoUnstable(turns: 20), section: "runtime", iterations: 0, files: StreamFiles())
        #expect(timing.phases.measurements.isEmpty)
        #expect(timing.appThread.count == 0)
    }
}
