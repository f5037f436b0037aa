import Cog
import Foundation

/// The runtime shapes as a client's code meets them: each timed run builds the shape's
/// declarations, makes a runtime, does the first reads and the turns, then drops both, all from
/// this module rather than `Cog`'s own. The runtime section builds declarations once outside
/// the timed region, so it never measures declaration, first-use or teardown costs; this one
/// does, and counts the heap allocations a run makes per selector run.
enum ClientSection {
    static func run(
        iterations: Int, shapes: [String], allocationCount: (() -> UInt64)?
    ) -> (measurements: [Measurement], countsHold: Bool) {
        var measurements: [Measurement] = []
        var rows: [[String]] = []
        var countsHold = true
        for make in runtimeShapeFactories() {
            let prebuilt = make()
            guard isChosen(prebuilt.name, by: shapes) else { continue }
            var runs = 0
            let timed = measureInterleaved(
                section: "client", name: prebuilt.name, iterations: iterations,
                [
                    ("declarations built once", { _ = prebuilt.run(on: Cogs()) }),
                    ("client-shaped", { runs = clientRun(make) }),
                ])
            let allocations = allocationCount.map { count -> Double in
                let before = count()
                let selectorRuns = clientRun(make)
                return Double(count() - before) / Double(max(selectorRuns, 1))
            }
            let countOK = runs == prebuilt.expectedSelectorRuns
            countsHold = countsHold && countOK
            measurements += timed
            if let allocations {
                measurements.append(
                    Measurement(
                        section: "client", name: prebuilt.name, variant: "allocations per selector run",
                        unit: "allocations", samples: [allocations]))
            }
            rows.append([
                prebuilt.name, format(timed[1].median), format(timed[0].median),
                ratio(timed[1].median, timed[0].median),
                allocations.map { String(format: "%.1f", $0) } ?? "-",
                "\(runs)" + (countOK ? "" : " (expected \(prebuilt.expectedSelectorRuns))"),
            ])
        }
        print("client-shaped runs (median of \(iterations); declarations, runtime, reads, turns and teardown timed)")
        print(
            table(
                [
                    "shape", "client ms", "built-once ms", "client ÷ built-once", "allocations / selector run",
                    "selector runs",
                ], rows))
        if allocationCount == nil { print("(allocations are counted only by the cog-bench executable)") }
        print()
        return (measurements, countsHold)
    }

    /// One client-shaped run: the shape's declarations and a runtime made, used and dropped.
    private static func clientRun(_ make: () -> any BenchShape) -> Int {
        let cogs = Cogs()
        let shape = make()
        return shape.run(on: cogs)
    }
}
