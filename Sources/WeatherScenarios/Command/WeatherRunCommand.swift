import CogCommandLine

/// `weather run [--trace FILE] [--interval SECONDS]`.
struct WeatherRunCommand {
    private var tracePath: String?
    private var interval: Duration = .seconds(10)

    /// Parses the words after `run`; nil when they asked for help, which was printed.
    init?(_ words: inout ArgumentList) throws(UsageError) {
        while let word = words.next() {
            switch word {
            case "--trace": tracePath = try words.value(after: word, expected: "a file path")
            case "--interval":
                let text = try words.value(after: word, expected: "a number of seconds")
                guard let seconds = Double(text), seconds.isFinite, seconds >= 0.001, seconds <= 86_400 else {
                    throw UsageError("--interval needs seconds between 0.001 and 86400, not '\(text)'")
                }
                interval = .milliseconds(Int((seconds * 1_000).rounded()))
            case "-h", "--help":
                print(WeatherHelp.command("run")!, terminator: "")
                return nil
            default: throw UsageError("unknown option '\(word)' for run")
            }
        }
    }

    func run() async throws {
        try await LiveSession(interval: interval, tracePath: tracePath).run()
    }
}
