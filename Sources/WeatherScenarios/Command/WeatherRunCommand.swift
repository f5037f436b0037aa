import CogCommandLine
import Weather

/// `weather run [--trace FILE] [--interval SECONDS] [--visit ZIP,...]`.
struct WeatherRunCommand {
    private var tracePath: String?
    private var interval: Duration = .seconds(10)
    private var visits: [ZipCode] = []

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
            case "--visit":
                let text = try words.value(after: word, expected: "ZIP codes, e.g. 94105,98101")
                visits = text.split(separator: ",").map { ZipCode(String($0)) }
                guard !visits.isEmpty,
                    visits.allSatisfy({ $0.rawValue.count == 5 && $0.rawValue.allSatisfy(\.isNumber) })
                else {
                    throw UsageError("--visit needs five-digit ZIP codes separated by commas, not '\(text)'")
                }
            case "-h", "--help":
                StandardOutput.write(WeatherHelp.command("run")!)
                return nil
            default: throw UsageError("unknown option '\(word)' for run")
            }
        }
    }

    func run() async throws {
        try await LiveSession(interval: interval, tracePath: tracePath, visits: visits).run()
    }
}
