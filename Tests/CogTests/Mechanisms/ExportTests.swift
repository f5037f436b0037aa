import Cog
import CogTesting
import Testing

private let _scoreCog = Cog<Int>.Manual(name: "score") { 0 }

@Suite("Exports and runaway chains", .timeLimit(.minutes(5)))
struct ExportTests {
    @Test func valuesStartWithTheCurrentValueThenEachChangedValue() async {
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        let values = cogs.values(of: _scoreCog, buffering: .unbounded)
        cogs.turn { c in c[_scoreCog] = 1 }
        cogs.turn { c in c[_scoreCog] = 1 }
        cogs.turn { c in c[_scoreCog] = 2 }
        var received: [Int] = []
        for await value in values {
            received.append(value)
            if received.count == 3 { break }
        }
        #expect(received == [0, 1, 2])
        #expect(log.lines(startingWith: "offer") == ["offer score 1", "offer score 2"])
    }

    @Test func newestBufferingSkipsTurnsForASlowReaderAndNeverBlocks() async {
        let cogs = Cogs.forTesting()
        let values = cogs.values(of: _scoreCog, buffering: .newest(1))
        for score in 1...100 { cogs.turn { c in c[_scoreCog] = score } }
        var iterator = values.makeAsyncIterator()
        #expect(await iterator.next() == 100)
    }

    @Test func oldestBufferingKeepsTheFirstWaitingValues() async {
        let cogs = Cogs.forTesting()
        let values = cogs.values(of: _scoreCog, buffering: .oldest(2))
        for score in 1...5 { cogs.turn { c in c[_scoreCog] = score } }
        var iterator = values.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        #expect(await iterator.next() == 1)
    }

    @Test func anExportHoldsALeaseUntilItsStreamEnds() async {
        let cogs = Cogs.forTesting()
        let before = cogs.liveRegistrationCount
        var values: AsyncStream<Int>? = cogs.values(of: _scoreCog)
        #expect(cogs.liveRegistrationCount == before + 1)
        _ = values
        values = nil
        while cogs.liveRegistrationCount > before { await Task.yield() }
        #expect(cogs.liveRegistrationCount == before)
    }

    @Test func aRunawayChainIsReportedOnceWithItsTurns() {
        let cogs = Cogs.forTesting()
        let diagnostics = cogs.collectingDiagnostics {
            cogs.start([
                ClosureMechanism(name: "PingPong") { m in
                    m.watch(_scoreCog, name: "bump") { _, score in
                        if score < 100 { m.turn("bump") { c in c[_scoreCog] = score + 1 } }
                    }
                }
            ])
            cogs.turn("kick") { c in c[_scoreCog] = 1 }
        }
        #expect(cogs.peek(_scoreCog) == 100)
        #expect(diagnostics.map(\.kind) == [.runawayChain])
        #expect(
            diagnostics.first?.message == "runaway chain: 65 turns without returning to idle: "
                + "kick -> PingPong.bump -> PingPong.bump -> … -> PingPong.bump -> PingPong.bump -> PingPong.bump",
            "the turn that started the chain counts: 65 in all warn, as the public library counts them"
        )
        let warning = cogs.turnChainDiagnostic.lastWarning
        #expect(cogs.turnChainDiagnostic.warningCount == 1)
        #expect(cogs.turnChainDiagnostic.isIdle)
        #expect(warning?.uninterruptedTurnCount == 100)
        #expect(warning?.causalChain.prefix(3) == [.turn("kick"), .reaction("PingPong.bump"), .turn("PingPong.bump")])
        #expect(warning?.causalChainIsTruncated == false)
    }

    /// A chain of exactly 64 turns, the first included, is quiet; a second chain past the
    /// threshold warns again (one warning per chain, not per runtime).
    @Test func sixtyFourTurnsAreQuietAndEachRunawayChainWarns() {
        let cogs = Cogs.forTesting()
        let diagnostics = cogs.collectingDiagnostics {
            cogs.start([
                ClosureMechanism(name: "Edge") { m in
                    m.watch(_scoreCog, name: "bump") { _, score in
                        if score % 100 < 64 { m.turn("bump") { c in c[_scoreCog] = score + 1 } }
                    }
                }
            ])
            cogs.turn("quiet") { c in c[_scoreCog] = 1 }
            #expect(cogs.peek(_scoreCog) == 64)
            #expect(cogs.turnChainDiagnostic.warningCount == 0)
            cogs.turn("loud") { c in c[_scoreCog] = 100 }
            cogs.turn("louder") { c in c[_scoreCog] = 200 }
        }
        #expect(diagnostics.map(\.kind) == [.runawayChain, .runawayChain])
        #expect(cogs.turnChainDiagnostic.warningCount == 2)
        #expect(cogs.turnChainDiagnostic.lastWarning?.uninterruptedTurnCount == 65)
        #expect(cogs.turnChainDiagnostic.lastWarning?.causalChain.first == .turn("louder"))
    }
}
