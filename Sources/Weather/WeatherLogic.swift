/// The rules the Weather app's states and alert apply. The app always runs `shipped`; a test (or
/// a person trying the inspector's `diff --trace`) can run it under other rules, scoped to one
/// task tree with `WeatherLogic.$current.withValue(_:operation:)`, to record what a small logic
/// change does to a scenario: the regression corpus in `WeatherTests` is built this way.
///
/// Each rule is one of the small mistakes a change to this app could make: a threshold moved,
/// a condition dropped, a default changed, a wrong key read, an extra read, an alert that fires
/// on start, registrations made in another order.
nonisolated public struct WeatherLogic: Sendable, Equatable {
    /// The temperatures (°F) that count as nice; shipped: above 60 and below 90.
    public var niceTemperatures: Range<Int> = 61..<90
    /// The skies that count as sunny.
    public var sunnyConditions: Set<WeatherCondition> = [.clear, .partlyCloudy]
    /// Whether a heat advisory makes a sunny, warm day not nice.
    public var respectsHeatAdvisory = true
    /// The longest refresh interval that still earns the hourly badge.
    public var hourlyBadgeLimit: Duration = .seconds(3_600)
    /// `weather.refreshInterval` before the app publishes its cadence.
    public var defaultRefreshInterval: Duration = .seconds(3_600)
    /// Whether the nice alert's watch also runs once when it is registered.
    public var alertsOnStart = false
    /// Whether `weather.isNiceHere` answers with New York's `isNice` whatever the current ZIP (a
    /// wrong key; it still reads the current ZIP's, so that forecast is still loaded).
    public var niceHereReadsNewYork = false
    /// Whether `weather.isNiceHere` also reads the refresh interval (an extra dependency).
    public var niceHereReadsRefreshInterval = false
    /// Whether the map shows the city's name in capitals.
    public var mapCityInCapitals = false
    /// Whether the mechanism registers the detail screens' scope before the alert's watch: the same
    /// behaviour with other registration ids.
    public var registersScopeFirst = false

    public init() {}

    /// The rules the app ships with.
    public static let shipped = WeatherLogic()

    /// The rules in force for the current task tree.
    @TaskLocal public static var current = WeatherLogic.shipped

    /// Whether `reading` counts as nice under these rules (`isSunny` already decided).
    func isNice(_ reading: WeatherReading) -> Bool {
        niceTemperatures.contains(reading.temperatureF) && !(respectsHeatAdvisory && reading.heatAdvisory)
    }
}

/// One small logic change, by name: `weather record SCENARIO --change NAME` records a scenario
/// under it, so `coginspect`'s `diff --trace` (or `weather replay`) can be tried on a real
/// regression. The test suite's regression corpus is these changes.
nonisolated public struct WeatherLogicChange: Sendable, CustomStringConvertible {
    /// The name on the command line, e.g. `nice-from-70`.
    public let name: String
    /// What it changes, as a commit message would say.
    public let summary: String
    /// The shipped rules with the change made.
    public let logic: WeatherLogic

    init(_ name: String, _ summary: String, _ change: (inout WeatherLogic) -> Void) {
        self.name = name
        self.summary = summary
        var logic = WeatherLogic.shipped
        change(&logic)
        self.logic = logic
    }

    public var description: String { name }

    /// Every change, in the order `weather record --help` lists them.
    public static let all: [WeatherLogicChange] = [
        WeatherLogicChange("nice-from-70", "nice starts at 70 °F") { $0.niceTemperatures = 71..<90 },
        WeatherLogicChange("nice-until-70", "nice ends at 70 °F") { $0.niceTemperatures = 61..<71 },
        WeatherLogicChange("partly-cloudy-not-sunny", "partly cloudy is not sunny") { $0.sunnyConditions = [.clear] },
        WeatherLogicChange("rain-is-sunny", "rain counts as sunny") {
            $0.sunnyConditions = [.clear, .partlyCloudy, .rain]
        },
        WeatherLogicChange("cloudy-is-sunny", "cloudy counts as sunny") {
            $0.sunnyConditions = [.clear, .partlyCloudy, .cloudy]
        },
        WeatherLogicChange("badge-30-minutes", "the hourly badge only up to 30 minutes") {
            $0.hourlyBadgeLimit = .seconds(1_800)
        },
        WeatherLogicChange("default-30-minutes", "the refresh interval defaults to 30 minutes") {
            $0.defaultRefreshInterval = .seconds(1_800)
        },
        WeatherLogicChange("alert-on-start", "the nice alert also runs when it is registered") {
            $0.alertsOnStart = true
        },
        WeatherLogicChange("new-york-key", "isNiceHere answers with New York's isNice") {
            $0.niceHereReadsNewYork = true
        },
        WeatherLogicChange("extra-read", "isNiceHere also reads the refresh interval") {
            $0.niceHereReadsRefreshInterval = true
        },
        WeatherLogicChange("map-capitals", "the map shows the city in capitals") { $0.mapCityInCapitals = true },
        WeatherLogicChange("scope-first", "the detail screens' scope is registered first (only ids change)") {
            $0.registersScopeFirst = true
        },
    ]

    /// The change named `name`.
    public static func named(_ name: String) -> WeatherLogicChange? { all.first { $0.name == name } }
}
