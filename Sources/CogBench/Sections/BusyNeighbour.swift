import Cog
import Dispatch
import Foundation
import Synchronization

/// A thread that keeps another core busy on request, to time what a second busy thread costs
/// the one that runs the shapes: a streamed run has the writer's thread working beside the
/// app's, an untraced run has nothing beside it.
///
/// On the virtual machines `cog-bench` was tuned on, that cost was not a property of the code:
/// an untraced run slowed by a busy loop on the other vCPU by an amount that changed from one
/// minute to the next (docs/performance.md, "Recorder and streaming"). Timed
/// beside each shape's streamed runs, it tells a crowded host apart from a slow recorder.
///
/// The same thread also echoes a value back (`roundTrip`), to time how long a cache line takes
/// to go to the other vCPU and back: on those machines it changed several-fold as the host
/// moved the vCPUs, and the stream's hand-over between the app's thread and the writer's paid
/// for it while the busy loop, which shares nothing, did not (docs/performance.md, "Recorder and
/// streaming").
final class BusyNeighbour: Sendable {
    private let spinner = Spinner()

    /// Starts the thread, idle.
    init() {
        let spinner = spinner
        Thread { spinner.run() }.start()
    }

    /// Ends the thread.
    func stop() {
        spinner.isStopped.store(true, ordering: .releasing)
        spinner.isBusy.store(false, ordering: .releasing)
        spinner.wake.signal()
    }

    /// How long untraced runs of `shape` take with the thread spinning, as a multiple of runs
    /// with it idle: `iterations` of each, alternating which comes first, after a warm-up run
    /// of each. The thread is started and stopped between runs, outside the timed part.
    func slowdown(of shape: any BenchShape, iterations: Int, section: String) -> Measurement {
        precondition(iterations > 0, "a slowdown needs timed runs")
        let clock = ContinuousClock()
        var alone: [Double] = []
        var beside: [Double] = []
        for round in -1..<iterations {
            for busy in round % 2 == 0 ? [false, true] : [true, false] {
                busy ? startSpinning() : stopSpinning()
                let elapsed = clock.measure { _ = shape.run(on: Cogs()) }.milliseconds
                guard round >= 0 else { continue }
                if busy { beside.append(elapsed) } else { alone.append(elapsed) }
            }
        }
        stopSpinning()
        return Measurement(
            section: section, name: shape.name, variant: "untraced beside a busy thread ÷ alone", unit: "ratio",
            samples: [Measurement.median(ofSorted: beside.sorted()) / Measurement.median(ofSorted: alone.sorted())])
    }

    /// Nanoseconds for a value stored here to be seen by the thread, stored back by it and seen
    /// here again: the median of `blocks` blocks of `trips` round trips each. A block stops early
    /// after 50 ms, so a machine that gives the thread no core of its own (a loaded CI host)
    /// costs a few blocks' time rather than a scheduler tick per trip.
    /// - Parameter moment: whether this is timed before or after the shape's streamed runs, which
    ///   the measurement's variant says.
    func roundTrip(trips: Int, blocks: Int, section: String, name: String, moment: RoundTripMoment) -> Measurement {
        precondition(trips > 0 && blocks > 0, "a round trip needs trips to time")
        stopSpinning()
        spinner.echoes.store(true, ordering: .releasing)
        startSpinning()
        let clock = ContinuousClock()
        var perTrip: [Double] = []
        var ball = spinner.ball.load(ordering: .acquiring)
        for _ in 0..<blocks {
            let began = clock.now
            let limit = began.advanced(by: .milliseconds(50))
            var done = 0
            while done < trips {
                // Odd values go out, the echo comes back as the next even one.
                ball += 1
                spinner.ball.store(ball, ordering: .releasing)
                while spinner.ball.load(ordering: .acquiring) == ball {}
                ball += 1
                done += 1
                if done % 16 == 0, clock.now > limit { break }
            }
            perTrip.append((clock.now - began).milliseconds * 1e6 / Double(done))
        }
        stopSpinning()
        spinner.echoes.store(false, ordering: .releasing)
        let variant = "round trip to a thread on the other core, \(moment.rawValue) the streams"
        return Measurement(section: section, name: name, variant: variant, unit: "ns", samples: perTrip)
    }

    /// How many rounds of arithmetic the thread has done, for tests to tell spinning from idling.
    var spinRounds: Int { spinner.rounds.load(ordering: .relaxed) }

    /// Has the thread spin, once it does.
    func startSpinning() {
        spinner.isBusy.store(true, ordering: .releasing)
        spinner.wake.signal()
        while !spinner.isSpinning.load(ordering: .acquiring) { sched_yield() }
    }

    /// Has the thread stop spinning, once it has.
    func stopSpinning() {
        spinner.isBusy.store(false, ordering: .releasing)
        while spinner.isSpinning.load(ordering: .acquiring) { sched_yield() }
    }
}

/// When a round trip is timed, around a shape's streamed runs.
enum RoundTripMoment: String {
    case before, after
}

/// What the busy thread runs, and the flags it and the timing thread share.
nonisolated private final class Spinner: Sendable {
    let isBusy = Atomic<Bool>(false)
    let isSpinning = Atomic<Bool>(false)
    let isStopped = Atomic<Bool>(false)
    /// Whether a busy thread echoes `ball` back rather than do arithmetic.
    let echoes = Atomic<Bool>(false)
    /// Set to an odd value by the timing thread; the echo stores the next even one.
    let ball = Atomic<Int>(0)
    /// Signalled to wake the thread from idling; a signal left over only costs it a look.
    let wake = DispatchSemaphore(value: 0)
    /// Rounds of a thousand steps done so far.
    let rounds = Atomic<Int>(0)
    /// Where the arithmetic ends up, so that it is not optimized away.
    private let sink = Atomic<UInt64>(0)

    func run() {
        while !isStopped.load(ordering: .acquiring) {
            guard isBusy.load(ordering: .acquiring) else {
                wake.wait()
                continue
            }
            isSpinning.store(true, ordering: .releasing)
            if echoes.load(ordering: .acquiring) { echo() } else { spin() }
            isSpinning.store(false, ordering: .releasing)
        }
    }

    private func spin() {
        var state: UInt64 = 1
        while isBusy.load(ordering: .relaxed) {
            for _ in 0..<1_000 { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
            rounds.add(1, ordering: .relaxed)
        }
        sink.store(state, ordering: .relaxed)
    }

    private func echo() {
        while isBusy.load(ordering: .relaxed) {
            let seen = ball.load(ordering: .acquiring)
            if seen & 1 == 1 { ball.store(seen + 1, ordering: .releasing) }
        }
    }
}
