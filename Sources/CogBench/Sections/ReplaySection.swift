import Cog
import CogTestSupport
import CogTrace
import Foundation

/// A recording as a test: how long the test `export test` writes takes to replay a
/// 1,000-turn recording with an async state (every generation answered with its recorded
/// outcome, never waited for), checking derived values and checking everything; and, for the
/// runtime's async path, how long the recorded session itself took on `Cogs.forTesting()`.
enum ReplaySection {
    static func run(turns: Int, iterations: Int) async throws -> [Measurement] {
        var recording = ""
        var sessions: [Double] = []
        for _ in 0..<(iterations + 1) {
            let start = ContinuousClock.now
            recording = await ReplayBenchApp.record(turns: turns)
            sessions.append((ContinuousClock.now - start).milliseconds)
        }
        var measurements = [
            Measurement(section: "replay", name: "session", variant: "forTesting", samples: Array(sessions.dropFirst()))
        ]
        for check in CogReplayCheck.allCases {
            var samples: [Double] = []
            var failure: (any Error)?
            for _ in 0..<(iterations + 1) {
                let test = CogReplayTest(name: "bench-replay", recording: recording, check: check)
                let start = ContinuousClock.now
                do {
                    try await test.run(ReplayBenchApp.Assembly.self)
                } catch {
                    failure = error
                }
                samples.append((ContinuousClock.now - start).milliseconds)
                if let failure { throw BenchFailure("the replay of the bench's own recording failed: \(failure)") }
            }
            measurements.append(
                Measurement(
                    section: "replay", name: "replay test", variant: check.rawValue, samples: Array(samples.dropFirst())
                ))
        }
        let turnCount = recording.split(separator: "\n").filter { $0.hasPrefix(#"{"type":"turn""#) }.count
        print(
            "\nreplay: a recording of \(turnCount) turns with an async state, as a replay test (median of \(iterations))"
        )
        print(
            table(
                ["what", "check", "median ms", "min", "max"],
                measurements.map { [$0.name, $0.variant, format($0.median), format($0.min), format($0.max)] }))
        return measurements
    }

    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
