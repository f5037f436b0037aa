import Cog
import CogTesting
import Testing

private final class RunCounter {
    var runs: [String: Int] = [:]
    func hit(_ name: String) { runs[name, default: 0] += 1 }
}

private let runs = RunCounter()
private let _temperatureCog = Cog<Int>.Manual(name: "temperature") { 70 }
private let isWarmCog = Cog<Bool>(name: "isWarm") { c in
    runs.hit("isWarm")
    return c[_temperatureCog] > 65
}
private let adviceCog = Cog<String>(name: "advice") { c in
    runs.hit("advice")
    return c[isWarmCog] ? "go outside" : "stay in"
}
private let _useMetricCog = Cog<Bool>.Manual(name: "useMetric") { false }
private let _celsiusCog = Cog<Int>.Manual(name: "celsius") { 21 }
private let displayCog = Cog<String>(name: "display") { c in
    runs.hit("display")
    return c[_useMetricCog] ? "\(c[_celsiusCog])C" : "\(c[_temperatureCog])F"
}

@Suite("Settling")
struct SettleTests {
    @Test func equalityGatingStopsTheWave() {
        runs.runs = [:]
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        #expect(cogs.peek(adviceCog) == "go outside")
        cogs.turn { c in c[_temperatureCog] = 80 }
        #expect(cogs.peek(adviceCog) == "go outside")
        #expect(runs.runs == ["isWarm": 2, "advice": 1])
        #expect(log.lines(startingWith: "recompute").last == "recompute isWarm true -> true gated by temperature")
        cogs.turn { c in c[_temperatureCog] = 50 }
        #expect(cogs.peek(adviceCog) == "stay in")
        #expect(runs.runs == ["isWarm": 3, "advice": 2])
        #expect(log.lines(startingWith: "recompute").last == "recompute advice go outside -> stay in changed by isWarm")
    }

    @Test func dependenciesAreRecapturedOnEveryRun() {
        runs.runs = [:]
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        #expect(cogs.peek(displayCog) == "70F")
        cogs.turn { c in c[_celsiusCog] = 30 }
        _ = cogs.peek(displayCog)
        #expect(runs.runs["display"] == 1)

        cogs.turn { c in c[_useMetricCog] = true }
        #expect(cogs.peek(displayCog) == "30C")
        #expect(runs.runs["display"] == 2)
        #expect(
            log.lines(startingWith: "deps") == [
                "deps display <- [useMetric, temperature]", "deps display <- [useMetric, celsius]",
            ])
        cogs.turn { c in c[_temperatureCog] = 99 }
        _ = cogs.peek(displayCog)
        #expect(runs.runs["display"] == 2)
    }

    @Test func aTenThousandDeepChainUpdatesWithoutRecursingOnItsDepth() {
        let source = Cog<Int>.Manual(name: "chain.source") { 0 }
        let cogs = Cogs.forTesting()
        var chain: [Cog<Int>] = []
        var previous = Cog<Int>(name: "chain.0") { c in c[source] + 1 }
        chain.append(previous)
        _ = cogs.peek(previous)
        for level in 1..<10_000 {
            let above = previous
            previous = Cog<Int>(name: "chain.\(level)") { c in c[above] + 1 }
            chain.append(previous)
            _ = cogs.peek(previous)
        }
        let log = EventLog.attached(to: cogs)
        cogs.turn { c in c[source] = 5 }
        #expect(cogs.peek(chain[9_999]) == 10_005)
        #expect(log.lines(startingWith: "recompute").count == 10_000)
    }
}
