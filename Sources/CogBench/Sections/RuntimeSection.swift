import Cog
import CogCommandLine
import CogTrace
import Foundation

/// The eight js-reactivity-benchmark shapes, each iteration on a fresh runtime: untraced, with a
/// recorder keeping a ring, and with a recorder streaming every turn to a file.
enum RuntimeSection {
    /// Median milliseconds of a reference Cog runtime, measured once on this machine kind.
    static let referenceMilliseconds: [String: Double] = [
        "kairo diamond": 7.43, "kairo deep": 3.48, "kairo broad": 21.99, "kairo unstable": 3.73,
        "cellx lattice": 35.96, "dynamic sweep": 9.34, "keyed diamond": 335.95, "key churn": 163.10,
    ]

    /// Times every shape whose name contains one of `shapes` (all when empty); `countsHold` is
    /// false when a shape's selector count differs from its formula.
    static func run(
        iterations: Int, variants: Set<String>, shapes: [String] = []
    ) -> (
        measurements: [Measurement], countsHold: Bool
    ) {
        var measurements: [Measurement] = []
        var rows: [[String]] = []
        var countsHold = true
        let streamFiles = StreamFiles()
        for shape in runtimeShapes() where isChosen(shape.name, by: shapes) {
            var runs = 0
            var variantBodies: [(variant: String, body: () -> Void)] = [("untraced", { runs = shape.run(on: Cogs()) })]
            if variants.contains("ring") {
                variantBodies.append(
                    (
                        "ring",
                        {
                            let cogs = Cogs()
                            CogRecorder(configuration: RecorderConfiguration(title: shape.name)).attach(to: cogs)
                            _ = shape.run(on: cogs)
                        }
                    ))
            }
            if variants.contains("null") {
                variantBodies.append(
                    (
                        "null probe",
                        {
                            let cogs = Cogs()
                            cogs.probe = DiscardingProbe()
                            _ = shape.run(on: cogs)
                        }
                    ))
            }
            let timed = measureInterleaved(section: "runtime", name: shape.name, iterations: iterations, variantBodies)
            let streamed = StreamTiming(
                shape, section: "runtime", iterations: variants.contains("stream") ? iterations : 0, files: streamFiles)
            func result(_ variant: String) -> Measurement {
                timed.first { $0.variant == variant }
                    ?? Measurement(
                        section: "runtime", name: shape.name, variant: variant, unit: "ms", median: .nan,
                        min: .nan, max: .nan, count: 0)
            }
            let untraced = result("untraced")
            let ring = result("ring")
            let null = result("null probe")
            let countOK = runs == shape.expectedSelectorRuns
            countsHold = countsHold && countOK
            let reference = referenceMilliseconds[shape.name]
            rows.append([
                shape.name, format(untraced.median), format(ring.median), ratio(ring.median, untraced.median),
                format(streamed.stream.median), String(format: "%.2f", streamed.streamRatio),
                String(format: "%.2f", streamed.appThreadRatio),
                ratio(null.median, untraced.median),
                "\(runs)" + (countOK ? "" : " (expected \(shape.expectedSelectorRuns))"),
                reference.map { String(format: "%.2f", $0) } ?? "-",
                reference.map { ratio(untraced.median, $0) } ?? "-",
            ])
            // Only the variants asked for: one not timed has no figures, and JSON holds no NaN.
            measurements.append(untraced)
            if variants.contains("ring") { measurements.append(ring) }
            if variants.contains("stream") {
                measurements += [streamed.stream] + (streamed.appThread.count > 0 ? [streamed.appThread] : [])
            }
            if variants.contains("null") { measurements.append(null) }
        }
        print("runtime (median of \(iterations) iterations, each on a fresh runtime, variants interleaved)\(probeNote)")
        print(
            table(
                [
                    "shape", "untraced ms", "ring ms", "ring ×", "stream ms", "stream ×", "stream app ×",
                    "null probe ×",
                    "selector runs",
                    "reference ms", "untraced ÷ ref",
                ], rows))
        print()
        if !countsHold {
            StandardError.write("cog-bench: selector counts differ from their formulas\n")
        }
        return (measurements, countsHold)
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
