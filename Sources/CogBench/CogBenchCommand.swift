public import CogCommandLine
import CogTraceFixtures
import Foundation

/// `cog-bench`: measures the runtime shapes, the recorder and the inspector, and prints tables
/// (and JSON with `--json FILE`). The executable only forwards its arguments here.
///
/// Build it in release: `swift run -c release cog-bench`. `--smoke` runs every section once at a
/// few iterations and checks the selector counts, for CI; it asserts no timing.
public enum CogBenchCommand {
    static let tool = CommandLineTool(name: "cog-bench")

    /// Runs one command line (without the program's name) and returns its exit status.
    /// - Parameter allocationCount: the calling thread's heap allocations so far, when the caller can
    ///   count them (the `cog-bench` executable links a counting allocator; tests do not).
    public static func run(_ arguments: [String], allocationCount: (() -> UInt64)? = nil) async -> ExitStatus {
        let options: BenchOptions
        do {
            options = try BenchOptions(arguments: arguments)
        } catch {
            tool.report("\(error); see cog-bench --help")
            return .usage
        }
        if options.showHelp {
            print(BenchOptions.usage)
            return .success
        }
        if options.showVersion {
            print(tool.versionLine())
            return .success
        }
        do {
            if let path = options.syntheticPath, options.wide {
                return try writeWide(options.wideShape, to: path, force: options.force)
            }
            if let path = options.syntheticPath {
                return try writeSynthetic(turns: options.sizes[0], to: path, force: options.force)
            }
            return try await measure(options, allocationCount: allocationCount)
        } catch {
            tool.report("\(error)")
            return .failure
        }
    }

    /// Writes the synthetic Weather-like trace the inspector section measures.
    private static func writeSynthetic(turns: Int, to path: String, force: Bool) throws -> ExitStatus {
        guard mayWrite(path, force: force) else { return .failure }
        var synthetic = SyntheticWeatherTrace(turns: turns)
        let bytes = try synthetic.write(to: URL(fileURLWithPath: path))
        print("wrote \(turns) turns (\(bytes) bytes) to \(path)")
        return .success
    }

    /// Writes the wide trace the widegraph section measures.
    private static func writeWide(_ shape: SyntheticWideTrace.Shape, to path: String, force: Bool) throws -> ExitStatus
    {
        guard mayWrite(path, force: force) else { return .failure }
        var synthetic = SyntheticWideTrace(shape: shape)
        let bytes = try synthetic.write(to: URL(fileURLWithPath: path))
        print("wrote \(shape.states) states in keyed families, \(shape.turns) turns (\(bytes) bytes) to \(path)")
        return .success
    }

    /// Whether `path` may be written: it does not exist, or `--force` says to replace it. Said
    /// before any measuring, so a long run is not spent on a file that will be refused.
    private static func mayWrite(_ path: String, force: Bool) -> Bool {
        guard FileManager.default.fileExists(atPath: path), !force else { return true }
        tool.report("'\(path)' exists; pass --force to replace it")
        return false
    }

    /// What `--json` writes: the schema version, then every measurement.
    struct Report: Encodable {
        /// Raised when a field changes meaning or goes; a new variant or section keeps it.
        static let currentSchemaVersion = 1
        var schemaVersion = currentSchemaVersion
        let measurements: [Measurement]
    }

    private static func measure(_ options: BenchOptions, allocationCount: (() -> UInt64)?) async throws -> ExitStatus {
        if let path = options.jsonPath, !mayWrite(path, force: options.force) { return .failure }
        let iterations = options.smoke ? 3 : options.iterations
        var measurements: [Measurement] = []
        var countsHold = true
        if options.sections.contains("runtime") {
            let runtime = RuntimeSection.run(iterations: iterations, variants: options.variants, shapes: options.shapes)
            measurements += runtime.measurements
            countsHold = runtime.countsHold
        }
        if options.sections.contains("client") {
            let client = ClientSection.run(
                iterations: iterations, shapes: options.shapes, allocationCount: allocationCount)
            measurements += client.measurements
            countsHold = countsHold && client.countsHold
        }
        if options.sections.contains("scenario") {
            let scenario = ScenarioSection.run(iterations: iterations, shapes: options.shapes)
            measurements += scenario.measurements
            countsHold = countsHold && scenario.countsHold
        }
        if options.sections.contains("counts") {
            let counts = CountsSection.run(shapes: options.shapes, allocationCount: allocationCount)
            measurements += counts.measurements
            countsHold = countsHold && counts.hold
        }
        if options.sections.contains("recorder") {
            measurements += try RecorderSection.run(
                iterations: iterations, steadyTurns: options.smoke ? 10_000 : 200_000, shapes: options.shapes)
        }
        if options.sections.contains("soak") {
            measurements += try SoakSection.run(turns: options.smoke ? 30_000 : options.soakTurns)
        }
        if options.sections.contains("inspector") {
            measurements += try InspectorSection.run(
                sizes: options.smoke ? [3_000] : options.sizes, samples: options.smoke ? 20 : 200)
        }
        if options.sections.contains("replay") {
            measurements += try await ReplaySection.run(
                turns: 1_000, iterations: options.smoke ? 2 : min(options.iterations, 9))
        }
        if options.sections.contains("follow") {
            measurements += try FollowSection.run(
                seconds: options.smoke ? 3 : options.followSeconds, rate: options.followRate)
        }
        if options.sections.contains("bigtrace") {
            measurements += try BigTraceSection.run(
                turns: options.smoke ? 20_000 : options.sizes.max() ?? 1_000_000,
                hugeTurns: options.smoke ? 40_000 : options.hugeTurns, samples: options.smoke ? 2 : 5)
        }
        if options.sections.contains("fleet") {
            measurements += try FleetSection.run(
                traceCount: options.smoke ? 20 : 1_000, turnsPerTrace: options.smoke ? 50 : 200)
        }
        if options.sections.contains("widegraph") {
            var shape = options.wideShape
            if options.smoke {
                shape.states = 600
                shape.keysPerFamily = 20...200
                shape.turns = 300
            }
            measurements += try WideGraphSection.run(shape: shape, samples: options.smoke ? 5 : 50)
            // A dense graph of states that fold into nothing: every state its own declaration.
            var dense = SyntheticWideTrace.Shape()
            dense.states = options.smoke ? 600 : 3_000
            dense.keysPerFamily = 1...1
            dense.edgesPerState = options.smoke ? 5 : 10
            dense.turns = options.smoke ? 100 : 300
            measurements += try WideGraphSection.run(
                shape: dense, samples: options.smoke ? 5 : 50, kind: "dense, nothing folds", drawsSVG: false)
        }
        if let path = options.jsonPath {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(Report(measurements: measurements)).write(to: URL(fileURLWithPath: path))
        }
        return countsHold ? .success : .failure
    }
}
