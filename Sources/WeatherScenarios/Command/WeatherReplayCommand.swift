import CogCommandLine
import CogScripting
import CogTraceFormat
import CogTraceStore
import Foundation

/// `weather replay FILE`: feeds a recording to a fresh app and compares turn by turn.
struct WeatherReplayCommand {
    /// The title `weather run` gives its traces; they ran on the real clock and cannot replay.
    static let liveRunTitle = "weather run"
    private let path: String

    /// Parses the words after `replay`; nil when they asked for help, which was printed.
    init?(_ words: inout ArgumentList) throws(UsageError) {
        var path: String?
        while let word = words.next() {
            if word == "-h" || word == "--help" {
                StandardOutput.write(WeatherHelp.command("replay")!)
                return nil
            }
            guard !word.hasPrefix("-") else { throw UsageError("unknown option '\(word)' for replay") }
            guard path == nil else { throw UsageError("replay takes one recording; got '\(path!)' and '\(word)'") }
            path = word
        }
        guard let path else {
            throw UsageError("replay needs a recording, e.g. weather replay Recordings/tour.cogtrace")
        }
        self.path = path
    }

    /// 0 when the app still does what was recorded, 1 when it differs.
    func run() async throws -> ExitStatus {
        let recording: TraceFile
        do {
            recording = try TraceFile.load(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw WeatherCommandError("\(error)", status: error.isUnopenable ? .cannotOpenInput : .malformedInput)
        }
        guard recording.header.title != Self.liveRunTitle else {
            throw WeatherCommandError(
                "cannot replay '\(path)': it is a 'weather run' recording, made on the real clock with the demo "
                    + "service, whose timing cannot be repeated; replay the scripted recordings "
                    + "('weather record' makes them)",
                status: .malformedInput)
        }
        let result: ReplayResult
        do {
            result = try await CogReplay(recording: recording).verify(
                against: ScenarioSession(title: recording.header.title))
        } catch {
            throw WeatherCommandError("cannot replay '\(path)': \(error)", status: .malformedInput)
        }
        guard let divergence = result.firstDivergence else {
            StandardOutput.write(
                "\(path): the current code matches all \(result.comparison.turnsCompared) turns and the work after each "
                    + "(\(result.inputsFed) inputs fed)" + "\n")
            return .success
        }
        let aspects = divergence.aspects.map(\.rawValue).joined(separator: ", ")
        StandardOutput.write(TerminalText.escape("\(path): diverges at \(divergence.place) (\(aspects)):") + "\n")
        for line in divergence.lines { StandardOutput.write(TerminalText.escape("  \(line)") + "\n") }
        let later = result.comparison.differences.count - 1
        if later > 0 { StandardOutput.write("\(later) later steps differ too" + "\n") }
        return .failure
    }
}
