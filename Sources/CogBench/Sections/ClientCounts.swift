import Cog
import Foundation

/// The exact counts of one client-shaped run: heap allocations on the calling thread and
/// selector runs. Unlike times they do not move with the machine's load, so CI holds every
/// shape on both clocks to the numbers in `ExpectedClientCounts` (`cog-bench --sections counts`).
struct ClientCounts: Equatable, CustomStringConvertible {
    let allocations: UInt64
    let selectorRuns: Int

    var description: String { "\(allocations) allocations, \(selectorRuns) selector runs" }

    /// Counts one client-shaped run of `make`'s shape on `clock`, after a run that warms every
    /// cache the process fills once (type metadata, the runtime's first-use tables).
    static func measure(
        _ make: () -> any BenchShape, on clock: BenchClock, allocationCount: () -> UInt64
    ) -> ClientCounts {
        _ = ClientSection.clientRun(make, on: clock)
        let before = allocationCount()
        let selectorRuns = ClientSection.clientRun(make, on: clock)
        return ClientCounts(allocations: allocationCount() - before, selectorRuns: selectorRuns)
    }
}

/// `cog-bench --sections counts`: every client shape on both clocks, its exact counts against
/// the committed ones. A difference fails the run and says how to update the number.
enum CountsSection {
    static func run(shapes: [String], allocationCount: (() -> UInt64)?) -> (measurements: [Measurement], hold: Bool) {
        guard !isDebugBuild else {
            print("counts: the committed counts are a release build's; nothing checked in a debug build\n")
            return ([], true)
        }
        guard let allocationCount else {
            print("counts: allocations are counted only by the cog-bench executable; nothing checked\n")
            return ([], true)
        }
        guard fixedEnvironment.allSatisfy({ ProcessInfo.processInfo.environment[$0.key] == $0.value }) else {
            return runInFixedEnvironment(shapes)
        }
        var rows: [[String]] = []
        var measurements: [Measurement] = []
        var differences: [String] = []
        for make in runtimeShapeFactories() {
            let name = make().name
            guard isChosen(name, by: shapes) else { continue }
            for clock in BenchClock.allCases {
                let counted = ClientCounts.measure(make, on: clock, allocationCount: allocationCount)
                let expected = ExpectedClientCounts.table[name]?[clock]
                let holds = counted == expected
                if !holds {
                    differences.append(
                        "\(name), \(clock): counted \(counted); expected "
                            + (expected.map { "\($0)" } ?? "no entry"))
                }
                rows.append([
                    name, "\(clock)", "\(counted.allocations)", expected.map { "\($0.allocations)" } ?? "-",
                    "\(counted.selectorRuns)", expected.map { "\($0.selectorRuns)" } ?? "-", holds ? "yes" : "NO",
                ])
                measurements.append(
                    Measurement(
                        section: "counts", name: name, variant: "allocations per run, \(clock)", unit: "allocations",
                        samples: [Double(counted.allocations)]))
            }
        }
        print(
            "exact counts of one client-shaped run (release build; Sources/CogBench/Sections/ExpectedClientCounts.swift)"
        )
        print(
            table(
                ["shape", "clock", "allocations", "expected", "selector runs", "expected", "holds"], rows))
        for difference in differences { print("count differs: \(difference)") }
        if !differences.isEmpty {
            print("update a count only with a reason in the same commit: docs/performance.md, \"Exact counts\"")
        }
        print()
        return (measurements, differences.isEmpty)
    }

    /// Whether this is a debug build, whose counts are not the committed (release) ones.
    private static var isDebugBuild: Bool {
        #if DEBUG
            true
        #else
            false
        #endif
    }

    /// What makes a run's count the same every time: a fixed hash seed (with a random one, how a
    /// hashed table fills varies, and so do a few allocations of the keyed shapes), and block
    /// sizes that do not depend on which blocks are free (`CAllocationCounter`).
    private static let fixedEnvironment = ["SWIFT_DETERMINISTIC_HASHING": "1", "COG_BENCH_EXACT_ALLOCATIONS": "1"]

    /// Runs this section in a copy of this program with `fixedEnvironment`, and prints its table.
    private static func runInFixedEnvironment(_ shapes: [String]) -> (measurements: [Measurement], hold: Bool) {
        let arguments = ["--sections", "counts"] + (shapes.isEmpty ? [] : ["--shapes", shapes.joined(separator: ",")])
        guard let program = Bundle.main.executableURL,
            let run = try? ProcessRun(program, arguments, fixedEnvironment, capturesOutput: true)
        else {
            print("counts: cog-bench could not run itself to count; nothing checked\n")
            return ([], false)
        }
        print(run.output, terminator: "")
        return ([], run.succeeded)
    }
}
