import Cog
import CogTesting
import Testing

private let _laps = Cog<Int>.Manual(name: "laps") { 0 }
private let _session = Cog<Int?>.Manual(name: "session") { 1 }
private let _results = Cog<Int>.Manual(name: "results") { 0 }
private let _pings = Cog<Int>.Manual(name: "pings") { 0 }

extension CogOps {
    fileprivate func countLap() { turn { $0[_laps] += 1 } }
    fileprivate func endSession() { turn(_session, to: nil) }
    fileprivate func recordResult(_ value: Int) { turn(_results, to: value) }
}

/// A turn is named for the controller that started it, as the public library's history names
/// it; a scope's body runs after the scope's own run, so a turn it starts runs at once and a body
/// that ends its own scope finds every later primitive refused.
@Suite("Turns started by controllers")
struct ControllerTurnTests {
    @Test func aControllersTurnCarriesItsOwnersName() {
        let (cogs, controller) = Cogs.forTestingWithController(mechanisms: [
            ClosureMechanism(name: "Coach") { m in
                m.scope(_session, name: "session") { _, s in s.countLap() }
            }
        ])
        cogs.countLap()
        controller.countLap()
        let turns = cogs.debugHistory.entries.filter { $0.event == .turn }.map(\.name)
        #expect(turns == ["Coach.session[1].countLap()", "countLap()", "CogTesting.Probe.countLap()"])
        #expect(cogs.peek(_laps) == 3)
    }

    @Test func aScopeBodyThatEndsItsOwnScopeKeepsNothingAfterThatTurn() {
        var before: [Int] = []
        var after = 0
        let cogs = Cogs.forTesting(mechanisms: [
            ClosureMechanism(name: "Coach") { m in
                m.scope(_session, name: "session") { _, s in
                    s.run { c in before.append(c[_pings]) }
                    s.endSession()
                    s.run { _ in after += 1 }
                    s.recordResult(7)
                }
            }
        ])
        #expect(before == [0], "what the body registered before it ended its scope ran once")
        #expect(after == 0, "what it registered after never ran")
        #expect(cogs.peek(_results) == 0, "its write after the turn that ended the scope did nothing")
        #expect(cogs.peek(_session) == nil)
        cogs.turn(_pings, to: 1)
        #expect(before == [0], "neither registration survives the scope")
        #expect(after == 0)
    }
}
