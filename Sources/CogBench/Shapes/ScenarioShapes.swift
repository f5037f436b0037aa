/// The runtime shapes written as the public library's scenarios write theirs (`ScenarioGraph`):
/// each run declares its graph, reads at the UI edge and tears it down. The parameters are the
/// runtime section's, so the two tables compare; a UI read pins what it read, so no state waits
/// out a grace period here.
struct ScenarioShape {
    let name: String
    /// The selector runs one run makes: the same minimum as the runtime shape's.
    let expectedSelectorRuns: Int
    /// Builds the graph and runs the turns on a fresh `ScenarioGraph`, returning its selector runs.
    let run: () -> Int

    /// Every scenario, in the runtime section's order (the keyed shapes have no scenario form:
    /// the comparison scenarios declare no keyed families).
    static let all: [ScenarioShape] = [
        ScenarioShape(name: "kairo diamond", expectedSelectorRuns: 6 * 501) { diamond(width: 5, turns: 500) },
        ScenarioShape(name: "kairo deep", expectedSelectorRuns: 50 * 51) { deep(depth: 50, turns: 50) },
        ScenarioShape(name: "kairo broad", expectedSelectorRuns: 2 * 50 * 51) { broad(width: 50, turns: 50) },
        ScenarioShape(name: "kairo unstable", expectedSelectorRuns: 2 + 2 * 100) { unstable(turns: 100) },
        ScenarioShape(name: "cellx lattice", expectedSelectorRuns: 8 * 1000) { lattice(layers: 1000) },
        ScenarioShape(name: "dynamic sweep", expectedSelectorRuns: 4 * 10 + 100 * (2...5).reduce(0, +)) {
            sweep(width: 10, rows: 4, turns: 100)
        },
    ]

    private static func diamond(width: Int, turns: Int) -> Int {
        let graph = ScenarioGraph()
        let head = graph.source(0)
        let branches = (0..<width).map { _ in graph.automatic { read in read(head) + 1 } }
        let sum = graph.automatic { read in branches.reduce(0) { $0 + read($1) } }
        _ = graph.read(sum)
        for turn in 1...turns {
            graph.write(head, turn)
            _ = graph.read(sum)
        }
        return graph.selectorRuns
    }

    private static func deep(depth: Int, turns: Int) -> Int {
        let graph = ScenarioGraph()
        let head = graph.source(0)
        var current = head
        for _ in 0..<depth {
            let below = current
            current = graph.automatic { read in read(below) + 1 }
        }
        _ = graph.read(current)
        for turn in 1...turns {
            graph.write(head, turn)
            _ = graph.read(current)
        }
        return graph.selectorRuns
    }

    private static func broad(width: Int, turns: Int) -> Int {
        let graph = ScenarioGraph()
        let head = graph.source(0)
        let leaves = (0..<width).map { index in
            let first = graph.automatic { read in read(head) + index }
            return graph.automatic { read in read(first) + 1 }
        }
        for leaf in leaves { _ = graph.read(leaf) }
        for turn in 1...turns {
            graph.write(head, turn)
            for leaf in leaves { _ = graph.read(leaf) }
        }
        return graph.selectorRuns
    }

    private static func unstable(turns: Int) -> Int {
        let graph = ScenarioGraph()
        let head = graph.source(0)
        let double = graph.automatic { read in read(head) * 2 }
        let inverse = graph.automatic { read in -read(head) }
        let current = graph.automatic { read in
            (0..<20).reduce(0) { total, _ in total + (read(head) % 2 == 1 ? read(double) : read(inverse)) }
        }
        _ = graph.read(current)
        for turn in 1...turns {
            graph.write(head, turn)
            _ = graph.read(current)
        }
        return graph.selectorRuns
    }

    private static func lattice(layers: Int) -> Int {
        let graph = ScenarioGraph()
        let sources = (1...4).map { graph.source($0) }
        var above = sources
        var all: [ScenarioGraph.Handle] = []
        for _ in 0..<layers {
            let m = above
            above = [
                graph.automatic { read in read(m[1]) },
                graph.automatic { read in read(m[0]) - read(m[2]) },
                graph.automatic { read in read(m[1]) + read(m[3]) },
                graph.automatic { read in read(m[2]) },
            ]
            all += above
        }
        // Read from the sources down: read cold from the last layer, one first computation would
        // nest per layer, past the runtime's bound of 128.
        for handle in all { _ = graph.read(handle) }
        graph.write(sources.enumerated().map { index, source in (source, 4 - index) })
        for end in above { _ = graph.read(end) }
        return graph.selectorRuns
    }

    private static func sweep(width: Int, rows: Int, turns: Int) -> Int {
        let graph = ScenarioGraph()
        let sources = (0..<width).map { graph.source($0) }
        var above = sources
        for _ in 1...rows {
            let m = above
            above = (0..<width).map { index in
                graph.automatic { read in read(m[index]) + read(m[(index + 1) % width]) }
            }
        }
        for leaf in above { _ = graph.read(leaf) }
        for turn in 1...turns {
            graph.write(sources[(turn - 1) % width], 1_000 + turn)
            for leaf in above { _ = graph.read(leaf) }
        }
        return graph.selectorRuns
    }
}
