import Testing

@testable import Cog
@testable import CogBench

/// The selector-run counts of the eight js-reactivity-benchmark shapes, asserted exactly. Each is
/// the minimum for Cog's pull rule: a consumer re-runs as soon as a dependency, checked in read
/// order, has changed, so a dependency its new run no longer reads is never refreshed.
@Suite("Runtime shape counts")
struct RuntimeShapeCountTests {
    @Test func kairoDiamond() { expectCount(KairoDiamond(width: 5, turns: 500), 3006) }
    @Test func kairoDeep() { expectCount(KairoDeep(depth: 50, turns: 50), 2550) }
    @Test func kairoBroad() { expectCount(KairoBroad(width: 50, turns: 50), 5100) }
    @Test func kairoUnstableReachesTheMinimum() { expectCount(KairoUnstable(turns: 100), 202) }
    @Test func cellxLattice() { expectCount(CellxLattice(layers: 1000), 8000) }
    @Test func dynamicSweep() { expectCount(DynamicSweep(width: 10, rows: 4, turns: 100), 1440) }
    @Test func keyedDiamond() { expectCount(KeyedDiamond(keys: 100, width: 5, turns: 500), 3600) }
    @Test func keyChurnReachesTheMinimum() { expectCount(KeyChurn(window: 10, turns: 500), 5511) }

    @Test func cellxEndsWhereTheSuiteSays() {
        let shape = CellxLattice(layers: 1000)
        let cogs = Cogs()
        _ = shape.run(on: cogs)
        // The cellx suite's expected last layer for 1000 layers after the second write.
        #expect(shape.endValues(on: cogs) == [-2, -4, 2, 3])
    }

    @Test func theBenchRunsEveryShapeItPrints() {
        #expect(
            runtimeShapes().map(\.name) == [
                "kairo diamond", "kairo deep", "kairo broad", "kairo unstable",
                "cellx lattice", "dynamic sweep", "keyed diamond", "key churn",
            ])
        #expect(
            ScenarioShape.all.map(\.name) == [
                "kairo diamond", "kairo deep", "kairo broad", "kairo unstable", "cellx lattice", "dynamic sweep",
            ], "each scenario is counted by aScenarioShapeCountsAsItsRuntimeShape")
    }

    /// The shapes written as the public library's comparison scenarios write them (UI reads,
    /// closure-first forms, a test runtime) make the same minimum counts, and the forTesting
    /// clock's client runs make the production clock's.
    @Test(arguments: [
        "kairo diamond", "kairo deep", "kairo broad", "kairo unstable", "cellx lattice", "dynamic sweep",
    ])
    func aScenarioShapeCountsAsItsRuntimeShape(_ name: String) throws {
        let scenario = try #require(ScenarioShape.all.first { $0.name == name })
        let make = try #require(runtimeShapeFactories().first { $0().name == name })
        #expect(scenario.expectedSelectorRuns == make().expectedSelectorRuns)
        #expect(scenario.run() == scenario.expectedSelectorRuns)
        #expect(ClientSection.clientRun(make, on: .forTesting) == scenario.expectedSelectorRuns)
    }

    private func expectCount(_ shape: some BenchShape, _ expected: Int) {
        #expect(shape.expectedSelectorRuns == expected)
        #expect(shape.run(on: Cogs()) == expected)
        #expect(shape.run(on: Cogs()) == expected, "a second fresh runtime repeats the count")
    }
}
