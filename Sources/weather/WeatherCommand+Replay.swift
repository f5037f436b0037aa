import CogTesting
import CogTrace
import Foundation

extension WeatherCommand {
    /// `weather replay FILE`: feeds a recording to a fresh app and compares turn by turn.
    /// - Returns: the exit status: 0 when the app still does what was recorded, 1 when it differs,
    ///   65 for a recording replay cannot use, 66 for a file that cannot be opened.
    static func replay(_ arguments: [String]) async throws -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") {
            print(usage, terminator: "")
            return 0
        }
        guard arguments.count == 1, let path = arguments.first, !path.hasPrefix("-") else {
            throw WeatherUsageError("replay needs exactly one recording, e.g. weather replay Recordings/tour.cogtrace")
        }
        let recording: TraceFile
        do {
            recording = try TraceFile.load(contentsOf: URL(fileURLWithPath: path))
        } catch {
            FileHandle.standardError.write(Data("weather: \(error)\n".utf8))
            return error.line == 0 ? 66 : 65
        }
        do {
            let session = ScenarioSession(title: recording.header.title)
            let result = try await CogReplay(recording: recording).verify(against: session)
            guard let divergence = result.firstDivergence else {
                print("\(path): the current code matches all \(result.comparison.turnsCompared) turns "
                    + "(\(result.inputsFed) inputs fed)")
                return 0
            }
            let turn = divergence.turn.map { "turn \($0)" } ?? "after the last turn"
            print("\(path): diverges at \(turn): \(divergence.aspect.rawValue): \(divergence.detail)")
            let later = result.comparison.differences.count - 1
            if later > 0 { print("\(later) later turns differ too") }
            return 1
        } catch {
            FileHandle.standardError.write(Data("weather: cannot replay \(path): \(error)\n".utf8))
            return 65
        }
    }
}
