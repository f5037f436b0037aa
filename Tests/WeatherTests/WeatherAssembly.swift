import CogTesting

@testable import WeatherScenarios

/// How the generated replay tests in `Replays/` assemble Weather: a scenario session (the app on
/// a test clock, with the controlled forecast service the recording answers), under whatever
/// `WeatherLogic.current` says, so a test can run them against a changed app.
enum WeatherAssembly: CogReplayAssembly {
    /// A scenario session writes and reads through the app itself; nothing to declare.
    static var declarations: [CogReplayDeclaration] { [] }

    /// The session seeds its own controlled service (`weather.service`, which the generated
    /// tests skip: a closure has no recorded value).
    static func makeTarget(title: String, seeds: [ReplaySeed]) throws -> any ReplayTarget {
        ScenarioSession(title: title)
    }
}
