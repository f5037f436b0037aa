import CogCommandLine
import Foundation
import Testing

@testable import WeatherScenarios

/// The `weather` command line, driven through the library the executable forwards to: strict
/// arguments, per-command help, and the exit statuses every tool of the package shares.
@Suite("weather command line")
struct WeatherCommandTests {
    @Test(arguments: [
        ["scenarios", "--bogus"], ["record"], ["record", "nowhere"], ["record", "tour", "extra"],
        ["record", "--all", "tour"], ["replay"], ["replay", "a", "b"], ["run", "--interval", "-1"],
        ["run", "--interval", "nan"], ["run", "--bogus"], ["help", "bogus"], ["bogus"],
    ])
    func mistakesAreUsageErrors(_ arguments: [String]) async {
        var messages: [String] = []
        #expect(await WeatherCommand.run(arguments) { messages.append($0) } == .usage, "\(arguments)")
        #expect(messages.count == 1 && messages[0].hasSuffix("see weather help"), "\(messages)")
    }

    @Test func eachCommandHasItsOwnHelp() {
        for name in WeatherHelp.commandNames {
            let text = WeatherHelp.command(name)
            #expect(text?.hasPrefix("usage: weather \(name)") == true, "\(name)")
        }
        #expect(WeatherHelp.command("bogus") == nil)
        #expect(WeatherHelp.general.contains(ExitStatus.summary))
    }

    @Test func aLiveRunRecordingIsRefusedWithTheReason() async throws {
        let session = await Scenario.named("tour")!.run()
        let text = session.trace().replacingOccurrences(
            of: #""title":"tour""#, with: #""title":"\#(WeatherReplayCommand.liveRunTitle)""#)
        #expect(text.contains(WeatherReplayCommand.liveRunTitle))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("weather-live-\(getpid()).cogtrace")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var messages: [String] = []
        #expect(await WeatherCommand.run(["replay", file.path]) { messages.append($0) } == .malformedInput)
        #expect(messages.first?.contains("it is a 'weather run' recording") == true, "\(messages)")
    }

    @Test func aMissingRecordingCannotBeOpened() async {
        var messages: [String] = []
        #expect(
            await WeatherCommand.run(["replay", "/nonexistent/none.cogtrace"]) { messages.append($0) }
                == .cannotOpenInput)
        #expect(messages.count == 1)
    }
}
