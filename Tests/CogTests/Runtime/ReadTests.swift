import Cog
import CogTesting
import Testing

private final class RunCounter {
    var runs = 0
}

private let _priceCog = Cog<Int>.Manual(name: "price") { 10 }
private let _quantityCog = Cog<Int>.Manual(name: "quantity") { 1 }
private let totalRuns = RunCounter()
private let totalCog = Cog<Int>(name: "total") { c in
    totalRuns.runs += 1
    let price = c[_priceCog]
    let quantity = c.peek(_quantityCog)
    return price * quantity
}
private let _tickCog = Cog<Int>.Manual(name: "tick") { 0 }
private let tickHistoryCog = Cog<[Int]>(name: "tickHistory") { c in
    let tick = c[_tickCog]
    return (c.curr ?? []) + [tick]
}
private let coldRuns = RunCounter()
private let coldCog = Cog<Int>(name: "cold") { c in
    coldRuns.runs += 1
    return c[_priceCog] + 1
}

@Suite("Reads")
struct ReadTests {
    @Test func trackedReadsFollowChangesAndPeekedReadsDoNot() {
        totalRuns.runs = 0
        let cogs = Cogs.forTesting()
        #expect(cogs.peek(totalCog) == 10)
        cogs.turn { c in c[_quantityCog] = 3 }
        #expect(cogs.peek(totalCog) == 10)
        #expect(totalRuns.runs == 1)
        cogs.turn { c in c[_priceCog] = 20 }
        #expect(cogs.peek(totalCog) == 60)
        #expect(totalRuns.runs == 2)
    }

    @Test func peekSettlesADirtyValueBeforeReturningIt() {
        let cogs = Cogs.forTesting()
        _ = cogs.peek(coldCog)
        cogs.turn { c in c[_priceCog] = 41 }
        #expect(cogs.peek(coldCog) == 42)
    }

    @Test func computationsAreLazyAndColdBranchesStayDirty() {
        coldRuns.runs = 0
        let cogs = Cogs.forTesting()
        cogs.turn { c in c[_priceCog] = 1 }
        #expect(coldRuns.runs == 0)
        _ = cogs.peek(coldCog)
        #expect(coldRuns.runs == 1)
        cogs.turn { c in c[_priceCog] = 2 }
        cogs.turn { c in c[_priceCog] = 3 }
        #expect(coldRuns.runs == 1)
        #expect(cogs.peek(coldCog) == 4)
        #expect(coldRuns.runs == 2)
    }

    @Test func currIsTheStatesOwnPriorValue() {
        let cogs = Cogs.forTesting()
        #expect(cogs.peek(tickHistoryCog) == [0])
        cogs.turn { c in c[_tickCog] = 1 }
        #expect(cogs.peek(tickHistoryCog) == [0, 1])
        cogs.turn { c in c[_tickCog] = 2 }
        cogs.turn { c in c[_tickCog] = 3 }
        #expect(cogs.peek(tickHistoryCog) == [0, 1, 3])
    }

    @Test func runtimesAreIsolated() {
        let first = Cogs.forTesting()
        let second = Cogs.forTesting()
        first.turn { c in c[_priceCog] = 99 }
        #expect(first.peek(_priceCog) == 99)
        #expect(second.peek(_priceCog) == 10)
    }
}
