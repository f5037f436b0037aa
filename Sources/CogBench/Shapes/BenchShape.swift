import Cog

/// One benchmark scenario from the js-reactivity-benchmark suites, ported to Cog.
///
/// A shape builds its declarations once (as an app's file-scope `let`s would be) and runs each
/// iteration on a fresh runtime, returning how many selectors ran so counts can be checked
/// against their formulas.
protocol BenchShape {
    /// The scenario's name in tables and JSON.
    var name: String { get }
    /// The exact selector-run count the scenario must produce (the minimum for Cog's pull rule).
    var expectedSelectorRuns: Int { get }
    /// Runs the whole scenario on `cogs`: first reads, then every turn with its reads.
    /// - Returns: how many selectors ran.
    func run(on cogs: Cogs) -> Int
}

/// Counts selector runs; selectors capture one and bump it.
final class SelectorCounter {
    var runs = 0
}

/// Whether `--shapes` chose the shape called `name`: its name contains one of `words`, or no
/// word was given. The runtime, client and recorder sections all choose by it.
func isChosen(_ name: String, by words: [String]) -> Bool {
    words.isEmpty || words.contains { name.contains($0) }
}

/// The eight runtime shapes' names, for `--shapes` to be checked against.
var runtimeShapeNames: [String] { runtimeShapes().map(\.name) }

/// The eight runtime shapes, at the parameters `cog-bench` and the tests use.
func runtimeShapes() -> [any BenchShape] { runtimeShapeFactories().map { $0() } }

/// How to build each of the eight runtime shapes: the client-shaped section builds a shape's
/// declarations inside every timed run, as a client's code does.
func runtimeShapeFactories() -> [() -> any BenchShape] {
    [
        { KairoDiamond(width: 5, turns: 500) },
        { KairoDeep(depth: 50, turns: 50) },
        { KairoBroad(width: 50, turns: 50) },
        { KairoUnstable(turns: 100) },
        { CellxLattice(layers: 1000) },
        { DynamicSweep(width: 10, rows: 4, turns: 100) },
        { KeyedDiamond(keys: 100, width: 5, turns: 500) },
        { KeyChurn(window: 10, turns: 500) },
    ]
}
