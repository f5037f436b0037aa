import CogTraceFixtures
import Foundation

/// Long Weather-like traces for the tests that need a command to run for a while, written by
/// the fixture module the bench also uses (no executable in between).
enum SyntheticTraces {
    /// Writes a trace of `turns` turns to `url`.
    static func write(turns: Int, to url: URL) throws {
        var trace = SyntheticWeatherTrace(turns: turns)
        _ = try trace.write(to: url)
    }
}
