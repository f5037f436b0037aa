import CogCommandLine
import Foundation
import WeatherScenarios

/// `weather`: the sample app's command line; everything it does lives in `WeatherScenarios`.
@main
struct WeatherMain {
    static func main() async {
        let status = await WeatherCommand.run(Array(CommandLine.arguments.dropFirst()))
        exit(status.rawValue)
    }
}
