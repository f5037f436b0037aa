public import CogCommandLine
import Foundation

/// `weather`: runs the Weather sample app headless, records its scripted scenarios, and keeps
/// `Recordings/` up to date. The executable only forwards its arguments here, so tests drive the
/// same code the tool runs.
public enum WeatherCommand {
    static let tool = CommandLineTool(name: "weather")

    /// Runs one command line (without the program's name) and returns its exit status.
    /// - Parameter report: where error messages go; standard error, as `weather: …`, by default
    ///   (tests pass their own, so a deliberate error prints nothing).
    public static func run(_ arguments: [String], report: ((String) -> Void)? = nil) async -> ExitStatus {
        let report = report ?? { tool.report($0) }
        var words = ArgumentList(arguments)
        guard let word = words.next() else {
            StandardOutput.write(WeatherHelp.general)
            return .success
        }
        do {
            switch word {
            case "-h", "--help": StandardOutput.write(WeatherHelp.general)
            case "--version": StandardOutput.write(tool.versionLine() + "\n")
            case "help": try help(&words)
            case "scenarios":
                if try wantsHelp(&words, for: "scenarios") { return .success }
                listScenarios()
            case "record": try await WeatherRecordCommand(&words)?.run()
            case "replay": return try await WeatherReplayCommand(&words)?.run() ?? .success
            case "run": try await WeatherRunCommand(&words)?.run()
            default:
                throw UsageError("unknown command '\(word)'; expected scenarios, record, replay, run or help")
            }
            return .success
        } catch let error as UsageError {
            report("\(error); see weather help")
            return .usage
        } catch let error as WeatherCommandError {
            report("\(error)")
            return error.status
        } catch {
            report("\(error)")
            return .failure
        }
    }

    /// `weather help [COMMAND]`.
    private static func help(_ words: inout ArgumentList) throws(UsageError) {
        guard let topic = words.next() else {
            StandardOutput.write(WeatherHelp.general)
            return
        }
        guard words.isEmpty else { throw UsageError("help takes one command, e.g. weather help record") }
        guard let text = WeatherHelp.command(topic) else {
            throw UsageError("no command '\(topic)'; expected \(WeatherHelp.commandNames.joined(separator: ", "))")
        }
        StandardOutput.write(text)
    }

    /// Consumes a command's only acceptable words, `-h`/`--help`; true when help was printed.
    static func wantsHelp(_ words: inout ArgumentList, for command: String) throws(UsageError) -> Bool {
        guard let word = words.next() else { return false }
        guard word == "-h" || word == "--help", words.isEmpty else {
            throw UsageError("\(command) takes no arguments, not '\(word)'")
        }
        StandardOutput.write(WeatherHelp.command(command) ?? WeatherHelp.general)
        return true
    }

    static func listScenarios() {
        let width = Scenario.all.map(\.name.count).max() ?? 0
        for scenario in Scenario.all {
            StandardOutput.write(
                scenario.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + scenario.summary + "\n")
        }
    }
}

/// A `weather` command that could not do its work, with the exit status that says why.
struct WeatherCommandError: Error, CustomStringConvertible {
    let description: String
    let status: ExitStatus

    init(_ description: String, status: ExitStatus) {
        self.description = description
        self.status = status
    }
}
