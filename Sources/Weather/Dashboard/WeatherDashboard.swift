public import Cog
import Observation

/// The headless dashboard: one card per ZIP, read through the Observation boundary exactly as a
/// SwiftUI view would, and rendered again when a state it read changes.
///
/// A change only marks the dashboard stale, as SwiftUI coalesces a burst of changes into one
/// render; `renderIfNeeded()` draws it (the running app schedules that on the next main-actor
/// turn, tests call it directly).
public final class WeatherDashboard {
    private let cogs: Cogs
    private let zips: [ZipCode]
    private let onStale: (() -> Void)?

    /// The text of the last render.
    public private(set) var text = ""
    /// How many times the dashboard has rendered.
    public private(set) var renderCount = 0
    /// Whether a state it read has changed since it last rendered.
    public private(set) var isStale = false

    /// - Parameters:
    ///   - cogs: The runtime, as a view would resolve it from its environment.
    ///   - zips: The cards to show.
    ///   - onStale: Called once when the dashboard goes stale (to schedule a render).
    public init(cogs: Cogs, zips: [ZipCode] = ZipCode.initial, onStale: (() -> Void)? = nil) {
        self.cogs = cogs
        self.zips = zips
        self.onStale = onStale
        render()
    }

    /// Renders again if a state it read changed.
    public func renderIfNeeded() {
        if isStale { render() }
    }

    private func render() {
        isStale = false
        renderCount += 1
        text = withObservationTracking {
            body()
        } onChange: { [weak self] in
            MainActor.assumeIsolated { self?.invalidate() }
        }
    }

    private func invalidate() {
        guard !isStale else { return }
        isStale = true
        onStale?()
    }

    private func body() -> String {
        let currentZip = cogs[currentZipCog]
        let receivesHourlyUpdates = cogs[receivesHourlyUpdatesCog]
        return zips.map { zip in
            card(for: zip, isCurrent: zip == currentZip, showsHourlyBadge: zip == currentZip && receivesHourlyUpdates)
        }.joined(separator: "\n")
    }

    private func card(for zip: ZipCode, isCurrent: Bool, showsHourlyBadge: Bool) -> String {
        let weatherForecast = cogs[weatherForecastCogs[zip]]
        let forecast = cogs.status[weatherForecastCogs[zip]]
        let isNice = cogs[isNiceCogs[zip]]
        let place = "\(zip.city) (\(zip))"
        var line = (isCurrent ? "▶ " : "  ") + place + String(repeating: " ", count: max(1, 22 - place.count))
        if let weatherForecast {
            line +=
                "\(weatherForecast.temperatureF)°F \(weatherForecast.condition.rawValue)"
                + (weatherForecast.heatAdvisory ? " heat advisory" : "")
            line += isNice ? "  nice" : "  not nice"
        } else {
            line += "no reading yet"
        }
        if forecast.isLoading { line += "  loading…" }
        if let error = forecast.error { line += "  failed: \(error)" }
        if showsHourlyBadge { line += "  [hourly]" }
        return line
    }
}
