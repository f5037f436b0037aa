import Cog
import Dispatch
import Foundation
import Synchronization

/// A thread that keeps another core busy on request, to time what a second busy thread costs
/// the one that runs the shapes: a streamed run has the writer's thread working beside the
/// app's, an untraced run has nothing beside it.
///
/// On the virtual machines `cog-bench` was tuned on, that cost was not a property of the code:
/// an untraced kairo diamond run took from 1.0× to 1.85× as long with a busy loop on the other
/// vCPU, changing from one minute to the next (docs/performance.md, eighteenth pass). Timed
/// beside each shape's streamed runs, it tells a crowded host apart from a slow recorder.
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

/// What the busy thread runs, and the flags it and the timing thread share.
nonisolated private final class Spinner: Sendable {
    let isBusy = Atomic<Bool>(false)
    let isSpinning = Atomic<Bool>(false)
    let isStopped = Atomic<Bool>(false)
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
            var state: UInt64 = 1
            while isBusy.load(ordering: .relaxed) {
                for _ in 0..<1_000 { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
                rounds.add(1, ordering: .relaxed)
            }
            sink.store(state, ordering: .relaxed)
            isSpinning.store(false, ordering: .releasing)
        }
    }
}
