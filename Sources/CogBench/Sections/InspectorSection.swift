import CogInspector
import CogInspectorExport
import CogTrace
import CogTraceFixtures
import CogTraceStore
import Foundation

/// The inspector on big traces: a synthetic Weather-like recording of each size, then loading
/// and indexing it, the memory that takes against the file's size, and the commands a person
/// runs most, at random turns.
enum InspectorSection {
    static func run(sizes: [Int], samples: Int) throws -> [Measurement] {
        var measurements: [Measurement] = []
        var rows: [[String]] = []
        var generator = SeededGenerator(seed: 42)
        for size in sizes {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent(
                "cog-bench-synthetic-\(size)-\(getpid()).cogtrace")
            defer { try? FileManager.default.removeItem(at: url) }
            var synthetic = SyntheticWeatherTrace(turns: size)
            let fileBytes = try synthetic.write(to: url)
            let name = "\(size / 1_000)k turns"

            let baseline = Memory.residentBytes()
            Memory.resetPeak()
            let clock = ContinuousClock()
            var trace: TraceFile?
            let load = clock.measure { trace = try? TraceFile.load(contentsOf: url) }
            guard let trace else { throw BenchFailure("the synthetic trace of \(size) turns did not load") }
            let peak = Memory.peakResidentBytes() - baseline
            let session = InspectorSession(trace: trace, source: url.lastPathComponent, catalog: .standard)
            let turns = session.turns

            func timed(
                _ variant: String, _ count: Int, in chosen: InspectorSession? = nil,
                call: CommandCall = CommandCall(), _ line: () -> String
            ) -> Measurement {
                var times: [Double] = []
                for _ in 0..<count {
                    // Several lines run one after the other count as one timed command.
                    let commands = line().split(separator: "\n").map(String.init)
                    let elapsed = clock.measure {
                        for command in commands { _ = try? (chosen ?? session).execute(command, call: call) }
                    }
                    times.append(elapsed.milliseconds)
                }
                return Measurement(section: "inspector", name: name, variant: variant, samples: times)
            }
            let randomTurn = { turns[Int.random(in: 0..<turns.count, using: &generator)] }
            let firstWhy = timed("why (first: walks back from the cursor)", 1) { "why weather.isNiceHere" }
            // Each "first" below runs in a session of its own, so it pays for what it builds. The
            // first history is a batch's only command (`coginspect trace -c 'history …'`), which
            // indexes that one state.
            let historySession = InspectorSession(trace: trace, source: url.lastPathComponent, catalog: .standard)
            let firstHistory = timed(
                "history (first: indexes its state)", 1, in: historySession, call: CommandCall(isLastCommand: true)
            ) {
                "history weather.forecast[10001]"
            }
            let goto = timed("goto + get", samples) { "goto \(randomTurn())\nget weather.isNiceHere" }
            let diff = timed("diff", max(samples / 4, 1)) { "diff \(randomTurn()) \(randomTurn())" }
            let why = timed("why (before the index exists)", samples) {
                _ = try? session.execute("goto \(randomTurn())")
                return "why weather.isNiceHere"
            }
            // Any state at any turn, asked as a user types it: the whole tree of causes, a first
            // run's inputs and an async result's work included, after the first question.
            let labels = trace.states.values.map(\.label).sorted()
            let whyAny = timed("why any state @turn (after the first)", samples) {
                "why \(labels[Int.random(in: 0..<labels.count, using: &generator)]) @\(randomTurn())"
            }
            // Bisect reads the state index; build the whole of it first, as the table has always
            // measured bisect on an indexed session (the first history above paid for an index of
            // its one state; a cold bisect indexes the states it names, docs/inspector.md).
            _ = session.undecodableTurns
            let bisect = timed("bisect", 1) { "bisect weather.forecast[10078].temperatureF > 98" }
            // The worst case: an expression that never holds over states every turn touches, so
            // every turn is a candidate; bisect walks the trace forward once.
            let everyZip = (0..<synthetic.zipCount).map { "weather.forecast[\(10001 + $0 * 7)].temperatureF > 999" }
            let everyTurn = (everyZip + [#"weather.currentZip == "none""#]).joined(separator: " or ")
            let bisectAll = timed("bisect (never holds, every turn a candidate)", 1) { "bisect \(everyTurn)" }
            let sql = timed("first sql (count, no record decoded)", 1) { "sql SELECT count(*) FROM recomputes" }
            let sqlValues = timed(
                "first sql reading values (every recompute decoded)", 1,
                in: InspectorSession(trace: trace, source: url.lastPathComponent, catalog: .standard)
            ) { "sql SELECT label, count(*) FROM recomputes WHERE changed GROUP BY label" }
            let loaded = Measurement(
                section: "inspector", name: name, variant: "load + index", samples: [load.milliseconds])
            let memory = Measurement(
                section: "inspector", name: name, variant: "peak memory ÷ file size", unit: "ratio",
                samples: [Double(peak) / Double(fileBytes)])
            measurements += [
                loaded, memory, goto, diff, firstWhy, firstHistory, why, whyAny, bisect, bisectAll, sql, sqlValues,
            ]
            rows.append([
                name, String(format: "%.0f", Double(fileBytes) / 1_048_576), format(load.milliseconds),
                String(format: "%.2f", memory.median), format(goto.median), format(goto.p99), format(diff.median),
                format(diff.p99), format(firstWhy.median), format(firstHistory.median), format(why.p99),
                format(whyAny.p99),
                format(bisect.median), format(bisectAll.median), format(sql.median), format(sqlValues.median),
            ])
        }
        print("inspector (synthetic Weather-like traces; goto, diff and why at random turns, \(samples) samples)")
        print(
            table(
                [
                    "trace", "MiB", "load ms", "peak ÷ file", "goto p50", "goto p99", "diff p50", "diff p99",
                    "why first", "history first", "why p99", "why any p99", "bisect ms", "bisect all ms",
                    "first sql ms",
                    "first sql values ms",
                ], rows))
        print()
        return measurements
    }
}

/// A small deterministic generator, so every run picks the same random turns.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// The process's resident memory, from `/proc/self/status`.
enum Memory {
    static func residentBytes() -> Int { field("VmRSS:") }
    static func peakResidentBytes() -> Int { field("VmHWM:") }

    /// Resets the peak so the next reading covers only what follows (Linux `clear_refs` 5).
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    private static func field(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1_024
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
