import Cog
import CogTestSupport
import Foundation

/// The runtime shapes as a client's code meets them: each timed run builds the shape's
/// declarations, makes a runtime, does the first reads and the turns, then drops both, all from
/// this module rather than `Cog`'s own. The runtime section builds declarations once outside
/// the timed region, so it never measures declaration, first-use or teardown costs; this one
/// does, on both clocks a client meets: the production runtime (`Cogs()`) and the one a test
/// suite makes (`Cogs.forTesting()`, on its own `TestClock`). It also counts the heap
/// allocations a run makes per selector run.
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
            var runs: [BenchClock: Int] = [:]
            let timed = measureInterleaved(
                section: "client", name: prebuilt.name, iterations: iterations,
                [("declarations built once", { _ = prebuilt.run(on: Cogs()) })]
                    + BenchClock.allCases.map { clock in
                        (clock.variant, { runs[clock] = clientRun(make, on: clock) })
                    })
            var allocations: [BenchClock: Double] = [:]
            if let allocationCount {
                for clock in BenchClock.allCases {
                    let counts = ClientCounts.measure(make, on: clock, allocationCount: allocationCount)
                    allocations[clock] = Double(counts.allocations) / Double(max(counts.selectorRuns, 1))
                    measurements.append(
                        Measurement(
                            section: "client", name: prebuilt.name, variant: "allocations per selector run, \(clock)",
                            unit: "allocations", samples: [allocations[clock]!]))
                }
            }
            let countOK = BenchClock.allCases.allSatisfy { runs[$0] == prebuilt.expectedSelectorRuns }
            countsHold = countsHold && countOK
            measurements += timed
            let production = timed[1].median
            let testing = timed[2].median
            rows.append([
                prebuilt.name, format(production), format(testing), ratio(testing, production),
                format(timed[0].median), ratio(production, timed[0].median),
                BenchClock.allCases.map { clock in allocations[clock].map { String(format: "%.1f", $0) } ?? "-" }
                    .joined(separator: " / "),
                "\(runs[.production] ?? 0)" + (countOK ? "" : " (expected \(prebuilt.expectedSelectorRuns))"),
            ])
        }
        print(
            "client-shaped runs (median of \(iterations); declarations, runtime, reads, turns and teardown timed; "
                + "production clock: Cogs(), forTesting: Cogs.forTesting())")
        print(
            table(
                [
                    "shape", "production ms", "forTesting ms", "forTesting ÷ production", "built-once ms",
                    "production ÷ built-once", "allocations / selector run (production / forTesting)",
                    "selector runs",
                ], rows))
        if allocationCount == nil { print("(allocations are counted only by the cog-bench executable)") }
        print()
        return (measurements, countsHold)
    }

    /// One client-shaped run: the shape's declarations and a runtime on `clock` made, used and
    /// dropped.
    static func clientRun(_ make: () -> any BenchShape, on clock: BenchClock) -> Int {
        let cogs = clock.makeRuntime()
        let shape = make()
        return shape.run(on: cogs)
    }
}

/// The two runtimes a client's code runs on: the app's, and the one its tests make.
enum BenchClock: String, CaseIterable, CustomStringConvertible {
    /// `Cogs()`: the continuous clock, as an app runs.
    case production
    /// `Cogs.forTesting()`: a `TestClock` of its own, as a test suite runs.
    case forTesting

    /// The measurement's variant name in JSON (the production clock's is the one it always had).
    var variant: String { self == .production ? "client-shaped" : "client-shaped, \(rawValue)" }
    var description: String { rawValue }

    /// A fresh runtime on this clock.
    func makeRuntime() -> Cogs {
        switch self {
        case .production: Cogs()
        case .forTesting: Cogs.forTesting()
        }
    }
}
