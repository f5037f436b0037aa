import Cog
import CogTrace
import Foundation
import Weather

/// `weather`: runs the Weather sample app headless, records its scripted scenarios, and keeps
/// `Recordings/` up to date.
@main
struct WeatherCommand {
    static let usage = """
        usage: weather <command> [options]

        commands:
          scenarios                      list the scripted scenarios
          record SCENARIO [-o FILE]      record one scenario (default FILE: SCENARIO.cogtrace)
          record --all [-d DIRECTORY]    record every scenario into DIRECTORY (default: Recordings)
          replay FILE                    re-run a recording against the current code; exits 1
                                         when it differs, naming the first turn that does
          run [--trace FILE] [--interval SECONDS]
                                         run the app on the real clock with a live dashboard;
                                         Ctrl-C ends it and finishes the trace
          help [COMMAND]                 show this help

        """

    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        do {
            guard let command = arguments.first else {
                print(usage, terminator: "")
                return
            }
            arguments.removeFirst()
            switch command {
            case "scenarios": listScenarios()
            case "record": try await record(arguments)
            case "replay": exit(try await replay(arguments))
            case "run": try await run(arguments)
            case "help", "-h", "--help": print(usage, terminator: "")
            default: throw WeatherUsageError("unknown command '\(command)'; expected scenarios, record, replay, run or help")
            }
        } catch let error as WeatherUsageError {
            FileHandle.standardError.write(Data("weather: \(error)\n".utf8))
            exit(64)
        } catch {
            FileHandle.standardError.write(Data("weather: \(error.localizedDescription)\n".utf8))
            exit(1)
        }
    }

    static func listScenarios() {
        let width = Scenario.all.map(\.name.count).max() ?? 0
        for scenario in Scenario.all {
            print(scenario.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + scenario.summary)
        }
    }

    static func record(_ arguments: [String]) async throws {
        var options = arguments[...]
        var all = false
        var name: String?
        var output: String?
        var directory = "Recordings"
        while let argument = options.popFirst() {
            switch argument {
            case "--all": all = true
            case "-o", "--output": output = try value(after: argument, in: &options)
            case "-d", "--output-directory": directory = try value(after: argument, in: &options)
            case "-h", "--help":
                print(usage, terminator: "")
                return
            default:
                guard name == nil, !argument.hasPrefix("-") else {
                    throw WeatherUsageError("unexpected '\(argument)'; see weather help")
                }
                name = argument
            }
        }
        if all {
            guard name == nil, output == nil else {
                throw WeatherUsageError("record --all takes -d DIRECTORY, not a scenario or -o")
            }
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for scenario in Scenario.all {
                try await write(scenario, to: "\(directory)/\(scenario.name).cogtrace")
            }
            return
        }
        guard let name else { throw WeatherUsageError("record needs a scenario or --all; see weather scenarios") }
        guard let scenario = Scenario.named(name) else {
            let names = Scenario.all.map(\.name).joined(separator: ", ")
            throw WeatherUsageError("unknown scenario '\(name)'; expected one of \(names)")
        }
        try await write(scenario, to: output ?? "\(scenario.name).cogtrace")
    }

    private static func write(_ scenario: Scenario, to path: String) async throws {
        let session = await scenario.run()
        try Data(session.trace().utf8).write(to: URL(fileURLWithPath: path))
        print("recorded \(scenario.name): \(session.recorder.recordedTurnCount) turns -> \(path)")
    }

    static func run(_ arguments: [String]) async throws {
        var options = arguments[...]
        var tracePath: String?
        var interval: Duration = .seconds(10)
        while let argument = options.popFirst() {
            switch argument {
            case "--trace": tracePath = try value(after: argument, in: &options)
            case "--interval":
                let text = try value(after: argument, in: &options)
                guard let seconds = Double(text), seconds > 0 else {
                    throw WeatherUsageError("--interval needs a positive number of seconds, not '\(text)'")
                }
                interval = .milliseconds(Int(seconds * 1_000))
            case "-h", "--help":
                print(usage, terminator: "")
                return
            default: throw WeatherUsageError("unexpected '\(argument)'; see weather help")
            }
        }
        try await LiveSession(interval: interval, tracePath: tracePath).run()
    }

    private static func value(after option: String, in options: inout ArraySlice<String>) throws -> String {
        guard let value = options.popFirst() else { throw WeatherUsageError("\(option) needs a value") }
        return value
    }
}

/// A command-line mistake (exit status 64).
struct WeatherUsageError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
