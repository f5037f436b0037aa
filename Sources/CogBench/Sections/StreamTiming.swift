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
/// Each run records a new file, as an app run does; the files are removed after the shape,
/// untimed (truncating or removing a file just written costs this machine's file system
/// 0.2-2 ms, more than most shapes' runs). The runtime and recorder sections both report it.
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

/// A new file for every streamed run, all removed together when asked (and at the latest when
/// the bench ends). The names are made before the timed runs: building a URL is the bench's
/// work, not the recorder's, and cost a streamed run of kairo unstable about 8 µs (0.04×).
final class StreamFiles {
    private let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("cog-bench-\(getpid())-streams", isDirectory: true)
    private var count = 0
    private var prepared: [URL] = []

    init() {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// The next file's URL: one `prepare` made, else a new one.
    func next() -> URL { prepared.popLast() ?? makeURL() }

    /// Makes the names of the next `count` files now, so that `next()` only hands them out.
    func prepare(_ count: Int) {
        prepared = (0..<count).map { _ in makeURL() }.reversed()
    }

    /// A new file's URL, made without touching the disk: `appendingPathComponent` without
    /// `isDirectory` asks the file system whether the name is a folder, a system call of 15-70
    /// µs.
    private func makeURL() -> URL {
        count += 1
        return directory.appendingPathComponent("\(count).cogtrace", isDirectory: false)
    }

    /// How many files `timeCreation` creates.
    static let creationSamples = 5

    /// Times creating empty files beside the streamed ones, opened as a stream opens its file
    /// (`OpenedTrace.open`), then closed, so a reader can tell a slow volume from a slow
    /// recorder. On an ext4 volume without a journal this cost grows with the files removed in
    /// the last minutes and depends on where the folder's inodes are (docs/performance.md, "The
    /// stream, ninth pass"); a streamed run pays it once. The files go with the streamed ones,
    /// in `removeAll`.
    func timeCreation(section: String, name: String) -> Measurement {
        let clock = ContinuousClock()
        let times = (0..<Self.creationSamples).map { _ in
            count += 1
            let path = directory.appendingPathComponent("probe-\(count)", isDirectory: false).path
            return clock.measure { try? OpenedTrace.open(path).get().close() }.milliseconds
        }
        return Measurement(
            section: section, name: name, variant: "file creation (streamed files' folder)", samples: times)
    }

    func removeAll() {
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
}
