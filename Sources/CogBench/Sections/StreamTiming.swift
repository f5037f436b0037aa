import Cog
import CogTrace
import Foundation

/// Streaming timed against untraced runs of its own: a streamed run writes a file and leaves
/// the caches cold for whatever runs next, so it is not interleaved with the other variants.
/// "stream" runs until the file is finished (the writer's thread done too); "stream, app
/// thread" is the turns of the same runs alone, what the app's own thread pays while the
/// writer encodes and writes beside it. Timing the turns in runs of their own, as a third
/// variant, had each kind of run follow one kind of run twice as often as the other (the
/// rotation of three), so the streamed runs mostly started cold after untraced ones and the
/// turns-only runs warm after streamed ones; with two variants each follows either alike.
/// Each run streams into a file of its own, as an app run does, made empty just before the
/// shape's timed runs: creating a file is a cost an app pays once per recording, and on this
/// machine's file system it grew to hundreds of microseconds as the bench's own removals piled
/// up (ext4 scans past inodes freed in the last minutes), more than a whole run of some shapes.
/// It is timed on its own instead (`StreamFiles.timeCreation`, the *new file µs* column). The
/// stream opens the file as it would any that exists. The files are removed after the shape,
/// untimed (truncating or removing a file just written costs more than most shapes' runs). The runtime and recorder sections both report it.
struct StreamTiming {
    /// The untraced runs timed beside the streamed ones.
    let untraced: Measurement
    let stream: Measurement
    let appThread: Measurement
    /// Where the streamed runs' time went, phase by phase, and the untraced runs' teardown to
    /// set theirs against (`StreamPhases`).
    let phases: StreamPhases

    /// Until the file is finished, as a multiple of untraced.
    var streamRatio: Double { stream.median / untraced.median }
    /// The app's own thread, as a multiple of untraced.
    var appThreadRatio: Double { appThread.median / untraced.median }

    /// Times `shape` `iterations` times each way, each run on a fresh runtime and a new file in
    /// `files`.
    init(_ shape: any BenchShape, section: String, iterations: Int, files: StreamFiles) {
        var samples = PhaseSamples()
        // One warm-up run of each variant, then `iterations` timed ones.
        files.prepare(iterations + 1)
        let timed = measureInterleaved(
            section: section, name: shape.name, iterations: iterations,
            [
                (
                    "untraced",
                    {
                        let clock = ContinuousClock()
                        var cogs: Cogs? = Cogs()
                        _ = shape.run(on: cogs!)
                        let ran = clock.now
                        cogs = nil
                        samples.untracedTeardown.append((clock.now - ran).milliseconds)
                    }
                ),
                (
                    "stream",
                    {
                        // Each phase between two readings of the clock, and the runtime and
                        // recorder released at a known point: both escaped (the writer's thread
                        // holds the stream), so their release is not moved across the readings.
                        let clock = ContinuousClock()
                        let began = clock.now
                        var streaming: (cogs: Cogs, recorder: CogRecorder)? = Self.streaming(shape, to: files.next())
                        let started = clock.now
                        _ = shape.run(on: streaming!.cogs)
                        let ran = clock.now
                        streaming!.recorder.finishStreaming()
                        let finished = clock.now
                        streaming = nil
                        samples.add(began: began, started: started, ran: ran, finished: finished, released: clock.now)
                    }
                ),
            ])
        files.removeAll()
        untraced = timed[0]
        stream = timed[1]
        appThread = samples.summary(\.turns, section: section, name: shape.name, variant: "stream, app thread")
        phases = StreamPhases(samples, section: section, name: shape.name)
    }

    private static func streaming(_ shape: any BenchShape, to url: URL) -> (Cogs, CogRecorder) {
        let cogs = Cogs()
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: shape.name))
        recorder.attach(to: cogs)
        try? recorder.startStreaming(to: url)
        return (cogs, recorder)
    }
}
