public import Cog

private let _weatherServiceCog = Cog<WeatherService>.Manual(name: "weather.service") { .live }
/// The forecast capability, injected through the graph so tests can replace it.
public let weatherServiceCog = _weatherServiceCog.readOnly

private let _currentZipCog = Cog<ZipCode?>.Manual(name: "weather.currentZip") { nil }
/// The ZIP the person is looking at.
public let currentZipCog = _currentZipCog.readOnly

private let _refreshIntervalCog = Cog<Duration>.Manual(name: "weather.refreshInterval") {
    WeatherLogic.current.defaultRefreshInterval
}
/// How often the current ZIP's forecast refreshes.
public let refreshIntervalCog = _refreshIntervalCog.readOnly

/// The forecast for one ZIP, loaded through the service.
public let weatherForecastCogs = CogBox<WeatherReading?, ZipCode>.Async(default: nil, name: "weather.forecast") {
    c, zip in
    let weatherService = c[weatherServiceCog]
    return .run { @concurrent in
        try await weatherService.forecast(zip)
    }
}

/// Whether the sky is clear or partly cloudy at one ZIP.
public let isSunnyCogs = CogBox<Bool, ZipCode>(name: "weather.isSunny") { c, zip in
    let weatherForecast = c[weatherForecastCogs[zip]]
    guard let condition = weatherForecast?.condition else { return false }
    return WeatherLogic.current.sunnyConditions.contains(condition)
}

/// Whether it is nice outside at one ZIP: sunny, between 60 and 90 °F, and no heat advisory.
public let isNiceCogs = CogBox<Bool, ZipCode>(name: "weather.isNice") { c, zip in
    guard let weatherForecast = c[weatherForecastCogs[zip]] else { return false }
    let isSunny = c[isSunnyCogs[zip]]
    guard isSunny else { return false }
    return WeatherLogic.current.isNice(weatherForecast)
}

/// Whether it is nice where the person is looking.
public let isNiceHereCog = Cog<Bool>(name: "weather.isNiceHere") { c in
    let logic = WeatherLogic.current
    guard let currentZip = c[currentZipCog] else { return false }
    if logic.niceHereReadsRefreshInterval { _ = c[refreshIntervalCog] }
    let isNice = c[isNiceCogs[currentZip]]
    return logic.niceHereReadsNewYork ? c[isNiceCogs[.newYork]] : isNice
}

/// Whether the current ZIP refreshes every hour (the card's badge).
public let receivesHourlyUpdatesCog = Cog<Bool>(name: "weather.receivesHourlyUpdates") { c in
    guard c[currentZipCog] != nil else { return false }
    let refreshInterval = c[refreshIntervalCog]
    return refreshInterval <= WeatherLogic.current.hourlyBadgeLimit
}

/// Where the map centres.
public let mapLocationCog = Cog<MapLocation?>(name: "weather.mapLocation") { c in
    guard let currentZip = c[currentZipCog] else { return nil }
    let city = WeatherLogic.current.mapCityInCapitals ? currentZip.city.uppercased() : currentZip.city
    return MapLocation(zip: currentZip, city: city)
}

private let _openDetailScreensCog = Cog<[ZipCode]>.Manual(name: "weather.openDetailScreens") { [] }
/// The per-ZIP detail screens open now.
public let openDetailScreensCog = _openDetailScreensCog.readOnly

private let _detailNoteCogs = CogBox<String, ZipCode>.Manual(
    name: "weather.detailNote", lifetime: .whileObserved(resetToInitial: true)
) { "" }
/// The unfinished note on one ZIP's detail screen; released when the screen closes.
public let detailNoteCogs = _detailNoteCogs.readOnly

extension CogOps {
    /// Looks at another ZIP.
    public func selectLocation(_ zip: ZipCode?) {
        turn(_currentZipCog, to: zip)
    }

    /// Demands a fresh forecast for one ZIP.
    @discardableResult
    public func refreshForecast(for zip: ZipCode) -> CogRefresh<WeatherReading?> {
        refresh(weatherForecastCogs[zip])
    }

    /// Sets how often the current ZIP refreshes.
    public func publishRefreshInterval(_ interval: Duration) {
        turn(_refreshIntervalCog, to: interval)
    }

    /// Replaces the forecast service (tests, scenarios, the running app).
    public func installWeatherService(_ service: WeatherService) {
        turn(_weatherServiceCog, to: service)
    }

    /// Opens one ZIP's detail screen.
    public func openDetailScreen(_ zip: ZipCode) {
        turn { c in
            guard !c[_openDetailScreensCog].contains(zip) else { return }
            c[_openDetailScreensCog] = c[_openDetailScreensCog] + [zip]
        }
    }

    /// Types into one ZIP's detail note.
    public func writeDetailNote(_ note: String, for zip: ZipCode) {
        turn(_detailNoteCogs[zip], to: note)
    }

    /// Closes one ZIP's detail screen and releases its unfinished note.
    public func closeDetailScreen(_ zip: ZipCode) {
        turn { c in c[_openDetailScreensCog].removeAll { $0 == zip } }
        discard(_detailNoteCogs[zip])
    }
}

/// Every Weather source, handed out for replay verification so a recording's op writes and
/// discards can be fed back; the app itself writes them only through the ops above.
public let weatherReplaySources: [CogSourceWriter] = [
    CogSourceWriter(_refreshIntervalCog), CogSourceWriter(_currentZipCog), CogSourceWriter(_openDetailScreensCog),
    CogSourceWriter(_detailNoteCogs),
]

extension CogSeeder {
    /// Places a forecast service before any mechanism starts (tests and scripted scenarios).
    public func seedWeatherService(_ service: WeatherService) {
        seed(_weatherServiceCog, to: service)
    }
}
