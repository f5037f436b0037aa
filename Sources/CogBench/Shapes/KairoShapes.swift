import Cog

/// Kairo "diamond": one source fans out to `width` branches that one sum reads back.
/// Selector runs: (width + 1)(1 + turns).
struct KairoDiamond: BenchShape {
    let width: Int, turns: Int
    let counter = SelectorCounter()
    let head: Cog<Int>.Manual
    let sum: Cog<Int>

    init(width: Int, turns: Int) {
        self.width = width
        self.turns = turns
        let counter = counter
        let head = Cog<Int>.Manual(name: "diamond.head") { 0 }
        let branches = (0..<width).map { index in
            Cog<Int>(name: "diamond.branch\(index)") { c in
                counter.runs += 1
                return c[head] + 1
            }
        }
        self.head = head
        sum = Cog<Int>(name: "diamond.sum") { c in
            counter.runs += 1
            return branches.reduce(0) { $0 + c[$1] }
        }
    }

    var name: String { "kairo diamond" }
    var expectedSelectorRuns: Int { (width + 1) * (1 + turns) }

    func run(on cogs: Cogs) -> Int {
        counter.runs = 0
        _ = cogs.peek(sum)
        for turn in 1...turns {
            cogs.turn { c in c[head] = turn }
            _ = cogs.peek(sum)
        }
        return counter.runs
    }
}

/// Kairo "deep": a chain of `depth` automatic values over one source.
/// Selector runs: depth(1 + turns).
struct KairoDeep: BenchShape {
    let depth: Int, turns: Int
    let counter = SelectorCounter()
    let head: Cog<Int>.Manual
    let tail: Cog<Int>

    init(depth: Int, turns: Int) {
        self.depth = depth
        self.turns = turns
        let counter = counter
        let head = Cog<Int>.Manual(name: "deep.head") { 0 }
        var current = Cog<Int>(name: "deep.0") { c in
            counter.runs += 1
            return c[head] + 1
        }
        for level in 1..<depth {
            let previous = current
            current = Cog<Int>(name: "deep.\(level)") { c in
                counter.runs += 1
                return c[previous] + 1
            }
        }
        self.head = head
        tail = current
    }

    var name: String { "kairo deep" }
    var expectedSelectorRuns: Int { depth * (1 + turns) }

    func run(on cogs: Cogs) -> Int {
        counter.runs = 0
        _ = cogs.peek(tail)
        for turn in 1...turns {
            cogs.turn { c in c[head] = turn }
            _ = cogs.peek(tail)
        }
        return counter.runs
    }
}

/// Kairo "broad": `width` independent two-step branches over one source, each leaf read.
/// Selector runs: 2 · width(1 + turns).
struct KairoBroad: BenchShape {
    let width: Int, turns: Int
    let counter = SelectorCounter()
    let head: Cog<Int>.Manual
    let leaves: [Cog<Int>]

    init(width: Int, turns: Int) {
        self.width = width
        self.turns = turns
        let counter = counter
        let head = Cog<Int>.Manual(name: "broad.head") { 0 }
        leaves = (0..<width).map { index in
            let offset = Cog<Int>(name: "broad.offset\(index)") { c in
                counter.runs += 1
                return c[head] + index
            }
            return Cog<Int>(name: "broad.leaf\(index)") { c in
                counter.runs += 1
                return c[offset] + 1
            }
        }
        self.head = head
    }

    var name: String { "kairo broad" }
    var expectedSelectorRuns: Int { 2 * width * (1 + turns) }

    func run(on cogs: Cogs) -> Int {
        counter.runs = 0
        for leaf in leaves { _ = cogs.peek(leaf) }
        for turn in 1...turns {
            cogs.turn { c in c[head] = turn }
            for leaf in leaves { _ = cogs.peek(leaf) }
        }
        return counter.runs
    }
}

/// Kairo "unstable": a sum that reads the source, then 20 times either `double` or `inverse` by
/// the source's parity, so its dependency set flips every turn.
/// Selector runs: 2 + 2 · turns, because the helper the new run no longer reads is never refreshed.
struct KairoUnstable: BenchShape {
    let turns: Int
    let counter = SelectorCounter()
    let head: Cog<Int>.Manual
    let current: Cog<Int>

    init(turns: Int) {
        self.turns = turns
        let counter = counter
        let head = Cog<Int>.Manual(name: "unstable.head") { 0 }
        let double = Cog<Int>(name: "unstable.double") { c in
            counter.runs += 1
            return c[head] * 2
        }
        let inverse = Cog<Int>(name: "unstable.inverse") { c in
            counter.runs += 1
            return -c[head]
        }
        self.head = head
        current = Cog<Int>(name: "unstable.current") { c in
            counter.runs += 1
            var result = 0
            for _ in 0..<20 {
                let headValue = c[head]
                result += headValue % 2 == 1 ? c[double] : c[inverse]
            }
            return result
        }
    }

    var name: String { "kairo unstable" }
    var expectedSelectorRuns: Int { 2 + 2 * turns }

    func run(on cogs: Cogs) -> Int {
        counter.runs = 0
        _ = cogs.peek(current)
        for turn in 1...turns {
            cogs.turn { c in c[head] = turn }
            _ = cogs.peek(current)
        }
        return counter.runs
    }
}
