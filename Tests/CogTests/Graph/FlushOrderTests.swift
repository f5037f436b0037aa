import Cog
import CogTesting
import Testing

private let _sourceCog = Cog<Int>.Manual(name: "source") { 0 }
private let hotCog = Cog<Int>(name: "hot") { c in c[_sourceCog] * 10 }
private let coldCog = Cog<Int>(name: "cold") { c in c[_sourceCog] + 1 }
private let reactedCog = Cog<Int>(name: "reacted") { c in c[_sourceCog] - 1 }

/// Two reactions registered in a fixed order, reading different states.
private struct OrderMechanism: Mechanism {
    func operate(_ m: MechanismController) {
        m.run(name: "second-registered-first") { c in _ = c[reactedCog] }
        m.run(name: "later") { c in _ = c[_sourceCog] }
    }
}

@Suite("Flush order")
struct FlushOrderTests {
    /// Core design §3.2: commit, push, pull hot roots, notify boundaries, run reactions in
    /// registration order; cold branches stay dirty; queued turns come after.
    @Test func theFlushFollowsTheNormativeOrder() {
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        cogs.start([OrderMechanism()])
        _ = cogs.peek(coldCog)
        let spy = ObservationSpy { _ = cogs[hotCog] }
        log.clear()
        cogs.turn("write") { c in c[_sourceCog] = 2 }
        #expect(
            log.lines == [
                "turn 1 write op",
                "write source 0 -> 2",
                "recompute hot 0 -> 20 changed by source",
                "recompute reacted -1 -> 1 changed by source",
                "notice hot",
                "react Order.second-registered-first",
                "react Order.later",
                "end 1",
            ])
        #expect(spy.changes == 1)
    }
}
