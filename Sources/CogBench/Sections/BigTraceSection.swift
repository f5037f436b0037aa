import CogTraceFixtures
import Foundation

/// The inspector on big traces, as whole processes of the real `coginspect` built beside
/// `cog-bench` (each run a fresh process, as a user or a CI job pays it): peak resident memory
/// opening a trace of `hugeTurns` turns (about 4 GB at 8,000,000), and at `turns` turns the
/// reopening and `why` without and with the sidecar index, the busiest `history`, the first
/// screen of each streamed answer at the prompt (on a 40-row pseudo-terminal) and a `bisect`
/// that finds nothing.
enum BigTraceSection {
    static func run(turns: Int, hugeTurns: Int, samples: Int) throws -> [Measurement] {
        let inspector = try ProcessRun.inspector(for: "bigtrace")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cog-bench-big-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var measurements: [Measurement] = []
        func record(_ name: String, _ variant: String, _ runs: [ProcessRun], memory: Bool = false) {
            measurements.append(
                Measurement(section: "bigtrace", name: name, variant: variant, samples: runs.map(\.milliseconds)))
            if memory {
                measurements.append(
                    Measurement(
                        section: "bigtrace", name: name, variant: variant, unit: "MB peak",
                        samples: runs.map { Double($0.peakKilobytes) / 1024 }))
            }
        }

        let huge = folder.appendingPathComponent("huge.cogtrace")
        var hugeTrace = SyntheticWeatherTrace(turns: hugeTurns)
        let hugeBytes = try hugeTrace.write(to: huge)
        let opening = try (0..<max(1, samples / 2)).map { _ in
            try ProcessRun(inspector, [huge.path, "--no-index", "-c", "info"])
        }
        record("open \(hugeBytes >> 20) MB and info", "\(hugeTurns) turns", opening, memory: true)
        try FileManager.default.removeItem(at: huge)

        let trace = folder.appendingPathComponent("big.cogtrace")
        var synthetic = SyntheticWeatherTrace(turns: turns)
        _ = try synthetic.write(to: trace)
        let why = ["-c", "why weather.isNiceHere"]
        record(
            "reopen and why", "no index",
            try (0..<samples).map { _ in try ProcessRun(inspector, [trace.path, "--no-index"] + why) }, memory: true)
        // The first open writes the index (a small trace gets one only when asked).
        let environment = ["COGINSPECT_INDEX_MIN_MB": "0"]
        record("first open, writing the index", "index", [try ProcessRun(inspector, [trace.path] + why, environment)])
        record(
            "reopen and why", "index",
            try (0..<samples).map { _ in try ProcessRun(inspector, [trace.path] + why, environment) }, memory: true)
        record(
            "history of the busiest state", "index",
            try (0..<max(1, samples / 2)).map { _ in
                try ProcessRun(inspector, [trace.path, "-c", "history weather.currentZip"], environment)
            }, memory: true)
        // At the prompt, the first screen of each streamed answer, from Enter to its first row.
        let firstScreens: [(command: String, marker: String)] = [
            ("history weather.currentZip", "written in turn"), ("turns", "asyncCompletion"),
            ("sql SELECT turn, name FROM turns", "pending"), ("find select", "selectLocation(_:)"),
        ]
        for (command, marker) in firstScreens {
            let times = try (0..<max(1, samples / 2)).map { _ in
                var prompt = try PromptRun(
                    inspector, [trace.path], environment: environment.merging(["HOME": folder.path]) { $1 })
                defer { try? prompt.finish() }
                return try prompt.timeFirstScreen(of: command, marker: marker)
            }
            measurements.append(
                Measurement(section: "bigtrace", name: "first screen: \(command)", variant: "prompt", samples: times))
        }
        record(
            "bisect with no hit", "index",
            try (0..<max(1, samples / 2)).map { _ in
                try ProcessRun(inspector, [trace.path, "-c", "bisect weather.currentZip == \"00000\""], environment)
            }, memory: true)
        print("bigtrace (whole coginspect processes on synthetic traces; \(turns) turns, the huge one \(hugeTurns))")
        print(
            table(
                ["measure", "variant", "unit", "median", "min", "max", "runs"],
                measurements.map { measurement in
                    [
                        measurement.name, measurement.variant, measurement.unit,
                        String(format: "%.0f", measurement.median), String(format: "%.0f", measurement.min),
                        String(format: "%.0f", measurement.max), "\(measurement.count)",
                    ]
                }))
        print()
        return measurements
    }
}
