import Cog
import CogTrace
import Foundation

/// `cog-bench`: measures the runtime shapes and prints a table (and JSON with `--json FILE`).
///
/// Build it in release: `swift run -c release cog-bench`. `--smoke` runs every section once at a
/// few iterations and checks the selector counts, for CI; it asserts no timing.
@main
struct CogBench {
    /// Median milliseconds of a reference Cog runtime on this machine kind (issue "Cog runtime, part 1").
    static let referenceMilliseconds: [String: Double] = [
        "kairo diamond": 7.43, "kairo deep": 3.48, "kairo broad": 21.99, "kairo unstable": 3.73,
        "cellx lattice": 35.96, "dynamic sweep": 9.34, "keyed diamond": 335.95, "key churn": 163.10,
    ]

    static func main() throws {
        let options: BenchOptions
        do {
            options = try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("\(error)\nsee cog-bench --help\n".utf8))
            exit(64)
        }
        if options.showHelp {
            print(BenchOptions.usage)
            return
        }
        let iterations = options.smoke ? 3 : options.iterations
        var measurements: [Measurement] = []
        if options.sections.contains("runtime") {
            measurements += runtimeSection(iterations: iterations, variants: options.variants, shapes: options.shapes)
        }
        if options.sections.contains("recorder") {
            measurements += try RecorderSection.run(iterations: iterations, steadyTurns: options.smoke ? 10_000 : 200_000)
        }
        if options.sections.contains("soak") {
            measurements += try SoakSection.run(turns: options.smoke ? 30_000 : options.soakTurns)
        }
        if options.sections.contains("inspector") {
            measurements += try InspectorSection.run(sizes: options.smoke ? [3_000] : options.sizes,
                                                     samples: options.smoke ? 20 : 200)
        }
        if let path = options.jsonPath {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(measurements).write(to: URL(fileURLWithPath: path))
        }
        if options.failed { exit(1) }
    }

    /// The eight js-reactivity-benchmark shapes, each iteration on a fresh runtime: untraced, with
    /// a recorder keeping a ring, and with a recorder streaming every turn to a file.
    static func runtimeSection(iterations: Int, variants: Set<String>, shapes: [String] = []) -> [Measurement] {
        var measurements: [Measurement] = []
        var rows: [[String]] = []
        var countsHold = true
        let streamURL = FileManager.default.temporaryDirectory
            .appendingPathComponent("cog-bench-\(getpid()).cogtrace")
        defer { try? FileManager.default.removeItem(at: streamURL) }
        for shape in runtimeShapes() where shapes.isEmpty || shapes.contains(where: { shape.name.contains($0) }) {
            var runs = 0
            var variantBodies: [(variant: String, body: () -> Void)] = [("untraced", { runs = shape.run(on: Cogs()) })]
            if variants.contains("ring") {
                variantBodies.append(("ring", {
                    let cogs = Cogs()
                    CogRecorder(configuration: RecorderConfiguration(title: shape.name)).attach(to: cogs)
                    _ = shape.run(on: cogs)
                }))
            }
            if variants.contains("null") {
                variantBodies.append(("null probe", {
                    let cogs = Cogs()
                    cogs.probe = DiscardingProbe()
                    _ = shape.run(on: cogs)
                }))
            }
            let timed = measureInterleaved(section: "runtime", name: shape.name, iterations: iterations, variantBodies)
            // Streaming writes a file each iteration and leaves the caches cold for whatever runs
            // next, so it is timed against untraced runs of its own rather than among the others.
            let streamed = measureInterleaved(
                section: "runtime", name: shape.name, iterations: variants.contains("stream") ? iterations : 0, [
                    ("untraced", { _ = shape.run(on: Cogs()) }),
                    ("stream", {
                        let cogs = Cogs()
                        let recorder = CogRecorder(configuration: RecorderConfiguration(title: shape.name))
                        recorder.attach(to: cogs)
                        try? recorder.startStreaming(to: streamURL)
                        _ = shape.run(on: cogs)
                        recorder.finishStreaming()
                    }),
                ])
            func result(_ variant: String) -> Measurement {
                timed.first { $0.variant == variant }
                    ?? Measurement(section: "runtime", name: shape.name, variant: variant, unit: "ms", median: .nan,
                                   min: .nan, max: .nan, count: 0)
            }
            let untraced = result("untraced"), ring = result("ring"), null = result("null probe")
            let stream = streamed[1], streamBase = streamed[0]
            let countOK = runs == shape.expectedSelectorRuns
            countsHold = countsHold && countOK
            let reference = referenceMilliseconds[shape.name]
            rows.append([
                shape.name, format(untraced.median), format(ring.median), ratio(ring.median, untraced.median),
                format(stream.median), ratio(stream.median, streamBase.median), ratio(null.median, untraced.median),
                "\(runs)" + (countOK ? "" : " (expected \(shape.expectedSelectorRuns))"),
                reference.map { String(format: "%.2f", $0) } ?? "-",
                reference.map { ratio(untraced.median, $0) } ?? "-",
            ])
            measurements += [untraced, ring, stream] + (variants.contains("null") ? [null] : [])
        }
        print("runtime (median of \(iterations) iterations, each on a fresh runtime, variants interleaved)\(probeNote)")
        print(table(["shape", "untraced ms", "ring ms", "ring ×", "stream ms", "stream ×", "null probe ×", "selector runs",
                     "reference ms", "untraced ÷ ref"], rows))
        print()
        if !countsHold {
            FileHandle.standardError.write(Data("cog-bench: selector counts differ from their formulas\n".utf8))
            BenchOptions.countsFailed = true
        }
        return measurements
    }

    static var probeNote: String {
        #if COG_PROBES_COMPILED_OUT
        " — probe sites compiled out (COG_PROBES_COMPILED_OUT); ring and stream record nothing"
        #else
        ""
        #endif
    }
}

func format(_ milliseconds: Double) -> String { String(format: "%.3f", milliseconds) }
func ratio(_ value: Double, _ base: Double) -> String { String(format: "%.2f", value / base) }

/// The command line of `cog-bench`.
struct BenchOptions {
    static let usage = """
        usage: cog-bench [--smoke] [--iterations N] [--json FILE] [--sections LIST] [--sizes LIST]

          --smoke          a few iterations of every section; checks counts, for CI
          --iterations N   iterations per scenario (default 31)
          --json FILE      also write the measurements as JSON (schema: docs/performance.md)
          --variants LIST  which runtime variants to time besides untraced: ring, stream and
                           null (a probe that drops every event: what building the events costs); default all three
          --shapes LIST    only the runtime shapes whose names contain one of these words, e.g. cellx,diamond
          --sections LIST  which sections to run: runtime, recorder, inspector, soak (default all but soak)
          --soak-turns N   turns in the soak (default 10000000)
          --sizes LIST     turns in the inspector's synthetic traces (default 100000,1000000)
          -h, --help       show this help
        """

    /// Set when a shape's selector count differs from its formula; makes the run exit non-zero.
    static var countsFailed = false
    var smoke = false
    var iterations = 31
    var jsonPath: String?
    var variants: Set<String> = ["ring", "stream", "null"]
    /// Words naming the shapes to run; empty runs all.
    var shapes: [String] = []
    var sections: Set<String> = ["runtime", "recorder", "inspector"]
    var soakTurns = 10_000_000
    /// Whether `--sections` was given; `--smoke` alone runs every section, the soak included.
    private var sectionsChosen = false
    var sizes = [100_000, 1_000_000]
    var showHelp = false
    var failed: Bool { Self.countsFailed }

    init(arguments: [String]) throws {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--smoke": smoke = true
            case "-h", "--help": showHelp = true
            case "--iterations": iterations = try Self.count(after: argument, in: &remaining)
            case "--variants":
                variants = try Self.choices(after: argument, in: &remaining, from: ["ring", "stream", "null"])
            case "--shapes": shapes = try Self.list(after: argument, in: &remaining, example: "cellx,diamond")
            case "--sections":
                sections = try Self.choices(after: argument, in: &remaining, from: ["runtime", "recorder", "inspector", "soak"])
                sectionsChosen = true
            case "--soak-turns": soakTurns = try Self.count(after: argument, in: &remaining)
            case "--sizes":
                let words = try Self.list(after: argument, in: &remaining, example: "100000,1000000")
                let parsed = words.compactMap { Int($0) }.filter { $0 >= 3 }
                guard parsed.count == words.count else {
                    throw BenchUsageError(message: "--sizes needs whole numbers of at least 3, not '\(words.joined(separator: ","))'")
                }
                sizes = parsed
            case "--json":
                guard let value = remaining.popFirst() else {
                    throw BenchUsageError(message: "--json needs a file path")
                }
                jsonPath = value
            default:
                throw BenchUsageError(message: "unknown option '\(argument)'; see cog-bench --help")
            }
        }
        if smoke, !sectionsChosen { sections.insert("soak") }
    }
}

extension BenchOptions {
    /// The comma-separated words after `option`.
    fileprivate static func list(after option: String, in remaining: inout ArraySlice<String>, example: String) throws
        -> [String] {
        guard let value = remaining.popFirst(), !value.isEmpty else {
            throw BenchUsageError(message: "\(option) needs a list such as \(example)")
        }
        return value.split(separator: ",").map(String.init)
    }

    /// The words after `option`, each one of `allowed`.
    fileprivate static func choices(after option: String, in remaining: inout ArraySlice<String>, from allowed: [String])
        throws -> Set<String> {
        let words = try list(after: option, in: &remaining, example: allowed.prefix(2).joined(separator: ","))
        if let unknown = words.first(where: { !allowed.contains($0) }) {
            throw BenchUsageError(message: "unknown \(option.dropFirst(2).dropLast()) '\(unknown)'; expected \(allowed.joined(separator: ", "))")
        }
        return Set(words)
    }

    /// The positive whole number after `option`.
    fileprivate static func count(after option: String, in remaining: inout ArraySlice<String>) throws -> Int {
        guard let value = remaining.popFirst(), let count = Int(value), count > 0 else {
            throw BenchUsageError(message: "\(option) needs a positive whole number")
        }
        return count
    }
}

/// A command-line mistake, printed with the usage.
struct BenchUsageError: Error, CustomStringConvertible {
    let message: String
    var description: String { "cog-bench: \(message)" }
}

/// A probe that drops every event: timing it separates what the runtime spends building events
/// from what the recorder spends keeping them.
final class DiscardingProbe: CogProbe {
    func record(_ event: consuming CogProbeEvent) {}
    func signal(_ signal: CogProbeSignal) {}
    func recordStateCreated<Value>(_ info: CogStateInfo, value: UnsafePointer<Value>?) {}
    func recordRecompute<Value>(state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>,
                                changed: Bool, trigger: CogStateID?) {}
    func recordFirstRun<Value>(state: CogStateID, value: UnsafePointer<Value>, trigger: CogStateID?) {}
    func recordWrite<Value>(state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>) {}
    func recordDependenciesChanged(consumer: CogStateID, producers: borrowing CogProducerList) {}
}
