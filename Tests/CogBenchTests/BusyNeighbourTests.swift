import Foundation
import Testing

@testable import CogBench

/// The busy neighbour spins only while asked to, and its slowdown is a ratio of real runs.
@Suite("Busy neighbour", .timeLimit(.minutes(5)))
struct BusyNeighbourTests {
    @Test func itSpinsOnlyWhileAsked() {
        let neighbour = BusyNeighbour()
        defer { neighbour.stop() }
        usleep(20_000)
        #expect(neighbour.spinRounds == 0, "idle until asked")
        neighbour.startSpinning()
        #expect(Self.spinsARound(neighbour), "spins once asked")
        neighbour.stopSpinning()
        let stopped = neighbour.spinRounds
        usleep(50_000)
        #expect(neighbour.spinRounds == stopped, "no round after it stopped")
    }

    @Test func itEchoesValuesBackToTimeARoundTrip() {
        let neighbour = BusyNeighbour()
        defer { neighbour.stop() }
        // Returns only when every trip came back: a thread that never echoed would hang here,
        // and the suite's time limit would fail it.
        let roundTrip = neighbour.roundTrip(
            trips: 100, blocks: 3, section: "recorder", name: "shape", moment: .after)
        #expect(roundTrip.unit == "ns")
        #expect(roundTrip.variant == "round trip to a thread on the other core, after the streams")
        #expect(roundTrip.name == "shape")
        #expect(roundTrip.count == 3)
        #expect(roundTrip.min > 0 && roundTrip.max.isFinite)
        // Asked to spin again, it does arithmetic, not echoes.
        neighbour.startSpinning()
        #expect(Self.spinsARound(neighbour), "spins after the round trips")
        neighbour.stopSpinning()
    }

    /// Whether the spinning neighbour finishes a round of arithmetic within five seconds. A loaded
    /// machine may give it little time; a round is a thousand steps, so one lands in far less.
    private static func spinsARound(_ neighbour: BusyNeighbour) -> Bool {
        let started = neighbour.spinRounds
        var waited = 0
        while neighbour.spinRounds == started, waited < 5_000 {
            usleep(1_000)
            waited += 1
        }
        return neighbour.spinRounds > started
    }

    @Test func itsSlowdownIsARatioOfTimedRuns() {
        let neighbour = BusyNeighbour()
        defer { neighbour.stop() }
        let slowdown = neighbour.slowdown(of: KairoUnstable(turns: 20), iterations: 3, section: "recorder")
        #expect(slowdown.unit == "ratio")
        #expect(slowdown.variant == "untraced beside a busy thread ÷ alone")
        #expect(slowdown.median.isFinite && slowdown.median > 0)
        #expect(slowdown.count == 1)
    }
}
