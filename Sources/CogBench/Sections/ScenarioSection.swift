/// `cog-bench --sections scenario`: the runtime shapes written as the public library's
/// scenarios write theirs (`ScenarioGraph`), timed beside the client-shaped run of the same
/// shape on the same test clock, so what a test suite written that way pays is measured.
enum ScenarioSection {
    static func run(iterations: Int, shapes: [String]) -> (measurements: [Measurement], countsHold: Bool) {
        var measurements: [Measurement] = []
        var rows: [[String]] = []
        var countsHold = true
        let factories = Dictionary(runtimeShapeFactories().map { ($0().name, $0) }) { first, _ in first }
        for scenario in ScenarioShape.all where isChosen(scenario.name, by: shapes) {
            guard let make = factories[scenario.name] else { continue }
            var runs = 0
            let timed = measureInterleaved(
                section: "scenario", name: scenario.name, iterations: iterations,
                [
                    ("scenario-shaped, forTesting", { runs = scenario.run() }),
                    (BenchClock.forTesting.variant, { _ = ClientSection.clientRun(make, on: .forTesting) }),
                ])
            let countOK = runs == scenario.expectedSelectorRuns
            countsHold = countsHold && countOK
            measurements += timed
            rows.append([
                scenario.name, format(timed[0].median), format(timed[1].median),
                ratio(timed[0].median, timed[1].median),
                "\(runs)" + (countOK ? "" : " (expected \(scenario.expectedSelectorRuns))"),
            ])
        }
        print(
            "scenario-shaped runs (median of \(iterations); Cogs.forTesting(), declarations in closure-first forms "
                + "inside each run, UI reads, a named turn per write, teardown)")
        print(
            table(
                ["shape", "scenario-shaped ms", "client-shaped ms", "scenario ÷ client", "selector runs"], rows))
        print()
        return (measurements, countsHold)
    }
}
