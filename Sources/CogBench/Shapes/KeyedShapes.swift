import Cog

/// Keyed diamond: the kairo diamond per key, over keyed boxes; each turn writes one key in
/// rotation and reads that key's sum.
/// Selector runs: (keys + turns)(width + 1).
struct KeyedDiamond: BenchShape {
    let keys: Int, width: Int, turns: Int
    let counter = SelectorCounter()
    let heads: CogBox<Int, Int>.Manual
    let sums: CogBox<Int, Int>

    init(keys: Int, width: Int, turns: Int) {
        self.keys = keys
        self.width = width
        self.turns = turns
        let counter = counter
        let heads = CogBox<Int, Int>.Manual(name: "keyed.head") { 0 }
        let branches = (0..<width).map { index in
            CogBox<Int, Int>(name: "keyed.branch\(index)") { c, key in
                counter.runs += 1
                return c[heads[key]] + index
            }
        }
        self.heads = heads
        sums = CogBox<Int, Int>(name: "keyed.sum") { c, key in
            counter.runs += 1
            return branches.reduce(0) { $0 + c[$1[key]] }
        }
    }

    var name: String { "keyed diamond" }
    var expectedSelectorRuns: Int { (keys + turns) * (width + 1) }

    func run(on cogs: Cogs) -> Int {
        counter.runs = 0
        for key in 0..<keys { _ = cogs.peek(sums[key]) }
        for turn in 1...turns {
            let key = (turn - 1) % keys
            cogs.turn { c in c[heads[key]] = turn }
            _ = cogs.peek(sums[key])
        }
        return counter.runs
    }
}

/// Key churn: a roster sums a sliding window of keyed entries `epoch + key`; each turn advances
/// both the epoch and the window, so one key leaves and one arrives.
/// Selector runs: (window + 1)(1 + turns), because the entry that left is never refreshed.
struct KeyChurn: BenchShape {
    let window: Int, turns: Int
    let counter = SelectorCounter()
    let epoch: Cog<Int>.Manual
    let windowStart: Cog<Int>.Manual
    let roster: Cog<Int>

    init(window: Int, turns: Int) {
        self.window = window
        self.turns = turns
        let counter = counter
        let epoch = Cog<Int>.Manual(name: "churn.epoch") { 0 }
        let windowStart = Cog<Int>.Manual(name: "churn.windowStart") { 0 }
        let entries = CogBox<Int, Int>(name: "churn.entry") { c, key in
            counter.runs += 1
            return c[epoch] + key
        }
        self.epoch = epoch
        self.windowStart = windowStart
        roster = Cog<Int>(name: "churn.roster") { c in
            counter.runs += 1
            let start = c[windowStart]
            return (start..<start + window).reduce(0) { $0 + c[entries[$1]] }
        }
    }

    var name: String { "key churn" }
    var expectedSelectorRuns: Int { (window + 1) * (1 + turns) }

    func run(on cogs: Cogs) -> Int {
        counter.runs = 0
        _ = cogs.peek(roster)
        for _ in 1...turns {
            cogs.turn { c in
                c[epoch] += 1
                c[windowStart] += 1
            }
            _ = cogs.peek(roster)
        }
        return counter.runs
    }
}
