import Cog
import CogTesting
import Testing

/// An async state's value, read by key, behaves as its own derived state: readers of one key
/// run again only when that key's value changes, and the debug history names the value's
/// projection (`forecast.value[home]`) each time it is computed.
@Suite("Keyed async value projection", .timeLimit(.minutes(5)))
struct KeyedValueProjectionTests {
    private final class RunCounts {
        var home = 0
        var away = 0
    }

    @Test func readersOfOneKeyRunOnlyWhenThatKeysValueChanges() async throws {
        let homeWork = ControlledWork<Int>()
        let awayWork = ControlledWork<Int>()
        let forecasts = CogBox<Int, String>.Async(default: 0, name: "forecast") { _, key in
            key == "home" ? homeWork.makeWork() : awayWork.makeWork()
        }
        let counts = RunCounts()
        let cogs = Cogs.forTesting(mechanisms: [
            ClosureMechanism(name: "Readers") { m in
                m.run(name: "home") { c in
                    counts.home += 1
                    _ = c[forecasts["home"]]
                }
                m.run(name: "away") { c in
                    counts.away += 1
                    _ = c[forecasts["away"]]
                }
            }
        ])
        var homeStarts = homeWork.starts.makeAsyncIterator()
        var awayStarts = awayWork.starts.makeAsyncIterator()
        #expect(await homeStarts.next() == 0)
        #expect(await awayStarts.next() == 0)
        #expect(counts.home == 1 && counts.away == 1)

        homeWork.succeed(0, with: 72)
        for _ in 0..<1_000 where counts.home < 2 { await Task.yield() }
        #expect(counts.home == 2)
        #expect(counts.away == 1, "a result for home does not run away's reader")
        #if DEBUG
            let projections = cogs.debugHistory.entries.filter { $0.event == .recompute }.map(\.name)
            #expect(projections.filter { $0 == "forecast.value[home]" }.count == 2)
        #endif

        cogs.refresh(forecasts["home"])
        #expect(await homeStarts.next() == 1)
        let checked = MainActorCleanupAcknowledgement()
        cogs.acknowledgeNextAsyncCompletionCheck(with: checked)
        homeWork.succeed(1, with: 72)
        try await checked.wait()
        #expect(counts.home == 2, "the same value again does not run its readers")
        _ = cogs
    }
}
