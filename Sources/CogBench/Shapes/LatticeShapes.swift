import Cog

/// The cellx lattice: `layers` layers of four automatic values, each reading two or three of the
/// layer above; one turn rewrites all four sources and the last layer is read. The lattice is
/// first computed from the sources down, layer by layer: read cold from the last layer, it would
/// nest one first computation per layer, past the runtime's bound of 128.
/// Selector runs: 8 per layer (4 to build, 4 after the turn).
struct CellxLattice: BenchShape {
    let layers: Int
    let counter = SelectorCounter()
    let sources: [Cog<Int>.Manual]
    let ends: [Cog<Int>]
    /// Every layer, from the one below the sources to the last.
    let allLayers: [[Cog<Int>]]

    init(layers: Int) {
        self.layers = layers
        let counter = counter
        let sources = (1...4).map { index in Cog<Int>.Manual(name: "cellx.start.prop\(index)") { index } }
        var above = sources.map { AnyIntReference(address: $0.address) }
        var layer: [Cog<Int>] = []
        var allLayers: [[Cog<Int>]] = []
        for depth in 0..<layers {
            let m = above
            layer = [
                Cog<Int>(name: "cellx.\(depth).prop1") { c in
                    counter.runs += 1
                    return c[m[1]]
                },
                Cog<Int>(name: "cellx.\(depth).prop2") { c in
                    counter.runs += 1
                    return c[m[0]] - c[m[2]]
                },
                Cog<Int>(name: "cellx.\(depth).prop3") { c in
                    counter.runs += 1
                    return c[m[1]] + c[m[3]]
                },
                Cog<Int>(name: "cellx.\(depth).prop4") { c in
                    counter.runs += 1
                    return c[m[2]]
                },
            ]
            above = layer.map { AnyIntReference(address: $0.address) }
            allLayers.append(layer)
        }
        self.sources = sources
        self.allLayers = allLayers
        ends = layer
    }

    var name: String { "cellx lattice" }
    var expectedSelectorRuns: Int { 8 * layers }

    /// The values of the last layer after `run`, which the cellx suite checks.
    func endValues(on cogs: Cogs) -> [Int] { ends.map { cogs.peek($0) } }

    func run(on cogs: Cogs) -> Int {
        counter.runs = 0
        for layer in allLayers { for cog in layer { _ = cogs.peek(cog) } }
        cogs.turn { c in
            for (index, source) in sources.enumerated() { c[source] = 4 - index }
        }
        for end in ends { _ = cogs.peek(end) }
        return counter.runs
    }
}

/// Dynamic sweep: a row of `width` sources under `rows` computed rows; each node sums two
/// consecutive nodes of the row above, wrapping around. Each turn writes the next source in
/// rotation and every leaf is read.
/// Selector runs: rows · width + turns · (2 + 3 + … + (rows + 1)).
struct DynamicSweep: BenchShape {
    let width: Int, rows: Int, turns: Int
    let counter = SelectorCounter()
    let sources: [Cog<Int>.Manual]
    let leaves: [Cog<Int>]

    init(width: Int, rows: Int, turns: Int) {
        self.width = width
        self.rows = rows
        self.turns = turns
        let counter = counter
        let sources = (0..<width).map { index in Cog<Int>.Manual(name: "sweep.source\(index)") { index } }
        var above = sources.map { AnyIntReference(address: $0.address) }
        var row: [Cog<Int>] = []
        for depth in 1...rows {
            let m = above
            row = (0..<width).map { index in
                Cog<Int>(name: "sweep.\(depth).\(index)") { c in
                    counter.runs += 1
                    return c[m[index]] + c[m[(index + 1) % width]]
                }
            }
            above = row.map { AnyIntReference(address: $0.address) }
        }
        self.sources = sources
        leaves = row
    }

    var name: String { "dynamic sweep" }
    var expectedSelectorRuns: Int { rows * width + turns * (2...(rows + 1)).reduce(0, +) }

    func run(on cogs: Cogs) -> Int {
        counter.runs = 0
        for leaf in leaves { _ = cogs.peek(leaf) }
        for turn in 1...turns {
            let source = sources[(turn - 1) % width]
            cogs.turn { c in c[source] = 1_000 + turn }
            for leaf in leaves { _ = cogs.peek(leaf) }
        }
        return counter.runs
    }
}

/// A reference to an `Int` state of any shape, so a row of sources and a row of automatic values
/// can sit in one array.
struct AnyIntReference: CogReference {
    let address: CogAddress<Int>
}
