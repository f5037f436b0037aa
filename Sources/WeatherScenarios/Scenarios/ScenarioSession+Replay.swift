import Cog
import CogScripting
import CogTrace
import Weather

/// A scenario session replays a recording as well as it plays a script: the same app, clock,
/// controlled forecast service and dashboard, with the recording deciding every answer.
extension ScenarioSession: ReplayTarget {
    var sources: [CogSourceWriter] { weatherReplaySources }

    func refresh(_ state: ReplayState) -> Bool {
        guard state.declaration == "weather.forecast", let key = state.key else { return false }
        cogs.refreshForecast(for: ZipCode(key))
        return true
    }

    func complete(_ state: ReplayState, with outcome: ReplayOutcome) async throws -> Bool {
        guard state.declaration == "weather.forecast", let key = state.key,
            let request = claimRequest(for: ZipCode(key))
        else { return false }
        switch outcome {
        case .success:
            await request.succeed(try outcome.value(as: WeatherReading.self))
        case .failure(let message):
            await request.fail(WeatherServiceError(message))
        }
        return true
    }

    func openExport(of state: ReplayState) -> Bool {
        guard state.label == "weather.mapLocation" else { return false }
        let locations = cogs.values(of: mapLocationCog, buffering: .unbounded)
        exports[state.label] = (locations, locations.makeAsyncIterator())
        return true
    }

    func closeExport(of state: ReplayState) async {
        let before = cogs.registrationCount
        guard exports.removeValue(forKey: state.label) != nil else { return }
        // The stream's end reaches the runtime as a task of its own; wait for it, but not for ever
        // (a replay that never sees it diverges, and the comparison says where).
        let deadline = ContinuousClock.now + .seconds(5)
        while cogs.registrationCount >= before, ContinuousClock.now < deadline { await Task.yield() }
    }

    /// The dashboard redraws after an answer and after time passes, as it does in the scripts.
    func didFeed(_ input: ReplayInput) {
        switch input {
        case .completion, .graceExpiry: dashboard.renderIfNeeded()
        default: break
        }
    }

    /// A running request for `zip` nobody has answered, without waiting for one.
    private func claimRequest(for zip: ZipCode) -> ControlledGeneration<WeatherReading>? {
        if let index = waiting.firstIndex(where: { $0.tag == zip.rawValue && !$0.isCancelled }) {
            return waiting.remove(at: index)
        }
        return requests.claimStarted { $0.tag == zip.rawValue && !$0.isCancelled }
    }
}
