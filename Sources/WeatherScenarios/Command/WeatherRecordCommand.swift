import CogCommandLine
import CogTrace
import CogTraceStore
import Foundation
import Weather

/// `weather record SCENARIO [-o FILE]` and `weather record --all [-d DIRECTORY]`.
struct WeatherRecordCommand {
    private var scenarios: [Scenario] = []
    private var output: String?
    private var directory = "Recordings"
    private var all = false
    /// `--change NAME`: record under a small logic change instead of the shipped rules.
    private var change: WeatherLogicChange?

    /// Parses the words after `record`; nil when they asked for help, which was printed.
    init?(_ words: inout ArgumentList) throws(UsageError) {
        var name: String?
        while let word = words.next() {
            switch word {
            case "--all": all = true
            case "-o", "--output": output = try words.value(after: word, expected: "a file path")
            case "-d", "--output-directory": directory = try words.value(after: word, expected: "a directory")
            case "--change":
                let name = try words.value(after: word, expected: "a change's name")
                guard let named = WeatherLogicChange.named(name) else {
                    let names = WeatherLogicChange.all.map(\.name).joined(separator: ", ")
                    throw UsageError("unknown change '\(name)'; expected one of \(names)")
                }
                change = named
            case "-h", "--help":
                StandardOutput.write(WeatherHelp.command("record")!)
                return nil
            default:
                guard !word.hasPrefix("-") else { throw UsageError("unknown option '\(word)' for record") }
                guard name == nil else { throw UsageError("record takes one scenario; got '\(name!)' and '\(word)'") }
                name = word
            }
        }
        if all {
            guard name == nil, output == nil else {
                throw UsageError("record --all takes -d DIRECTORY, not a scenario or -o")
            }
            scenarios = Scenario.all
            return
        }
        guard let name else { throw UsageError("record needs a scenario or --all; 'weather scenarios' lists them") }
        guard let scenario = Scenario.named(name) else {
            let names = Scenario.all.map(\.name).joined(separator: ", ")
            throw UsageError("unknown scenario '\(name)'; expected one of \(names)")
        }
        scenarios = [scenario]
    }

    func run() async throws {
        if all { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        for scenario in scenarios {
            let path = all ? "\(directory)/\(scenario.name).cogtrace" : output ?? "\(scenario.name).cogtrace"
            let session = await WeatherLogic.$current.withValue(change?.logic ?? .shipped) { await scenario.run() }
            let under = change.map { " with the change \($0.name) (\($0.summary))" } ?? ""
            let summary = "recorded \(scenario.name)\(under): \(session.recorder.recordedTurnCount) turns"
            if path == "-" {
                // `-o -`: the trace itself is the output; the summary goes to standard error.
                StandardOutput.write(session.trace())
                StandardError.write("\(summary)\n")
                continue
            }
            do throws(FileWriteError) {
                // Recordings are rewritten on purpose, but whole or not at all, never through a link.
                try SafeFile.write(Array(session.trace().utf8), to: path, replacing: true)
            } catch {
                throw WeatherCommandError("\(error)", status: .cannotCreateOutput)
            }
            StandardOutput.write("\(summary) -> \(path)\n")
        }
    }
}
