import Synchronization

/// A US ZIP code: the identity of one forecast and one card.
nonisolated public struct ZipCode: Hashable, Codable, Sendable, CustomStringConvertible, Comparable {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// A ZIP encodes as its digits alone, so a recording shows `"10001"` rather than an object.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static func < (lhs: ZipCode, rhs: ZipCode) -> Bool { lhs.rawValue < rhs.rawValue }

    /// New York, San Francisco and Seattle: the ZIPs the app starts with.
    public static let newYork = ZipCode("10001")
    public static let sanFrancisco = ZipCode("94105")
    public static let seattle = ZipCode("98101")
    public static let initial: [ZipCode] = [.newYork, .sanFrancisco, .seattle]

    /// The city a person reads on the card.
    public var city: String {
        switch rawValue {
        case "10001": "New York"
        case "94105": "San Francisco"
        case "98101": "Seattle"
        default: "ZIP \(rawValue)"
        }
    }
}

/// The sky, as the feed reports it.
nonisolated public enum WeatherCondition: String, Codable, Sendable, Hashable {
    case clear, partlyCloudy, cloudy, rain
}

/// One forecast reading.
nonisolated public struct WeatherReading: Codable, Equatable, Sendable, CustomStringConvertible {
    public var condition: WeatherCondition
    public var temperatureF: Int
    public var heatAdvisory: Bool

    public init(_ condition: WeatherCondition, _ temperatureF: Int, heatAdvisory: Bool = false) {
        self.condition = condition
        self.temperatureF = temperatureF
        self.heatAdvisory = heatAdvisory
    }

    public var description: String {
        "\(condition.rawValue) \(temperatureF)°F" + (heatAdvisory ? " heat advisory" : "")
    }
}

/// Where the map centres: the selected ZIP's city.
nonisolated public struct MapLocation: Codable, Equatable, Sendable, CustomStringConvertible {
    public var zip: ZipCode
    public var city: String

    public init(zip: ZipCode, city: String) {
        self.zip = zip
        self.city = city
    }

    public var description: String { "\(city) (\(zip))" }
}

/// A failure the weather service reports.
nonisolated public struct WeatherServiceError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// The forecast capability: a small struct with a closure field, so tests and scenarios pass
/// their own without a mocking framework.
public struct WeatherService: Sendable {
    /// Fetches the forecast for one ZIP.
    public var forecast: @Sendable (ZipCode) async throws -> WeatherReading

    public init(forecast: @escaping @Sendable (ZipCode) async throws -> WeatherReading) {
        self.forecast = forecast
    }

    /// The demo service: each ZIP's readings in a fixed rotation, after `latency` on `clock`.
    public static func demo(
        feed: DemoFeed = DemoFeed(), latency: Duration = .zero, clock: any Clock<Duration> = ContinuousClock()
    ) -> WeatherService {
        WeatherService { zip in
            if latency > .zero { try await clock.sleep(for: latency) }
            return feed.next(for: zip)
        }
    }

    /// The demo service with real latency, as the running app uses it.
    public static let live = WeatherService.demo(latency: .milliseconds(300))
}

/// The demo feed: a fixed per-ZIP rotation of readings, so every run of a scenario sees the
/// same weather.
nonisolated public final class DemoFeed: Sendable {
    private let positions = Mutex<[ZipCode: Int]>([:])
    private let replacedRotations: [ZipCode: [WeatherReading]]

    /// The standard feed, or one whose rotation for some ZIPs is replaced (to record a run that
    /// differs from the shipped one, as a regression would).
    public init(replacing rotations: [ZipCode: [WeatherReading]] = [:]) {
        replacedRotations = rotations
    }

    /// Each ZIP's rotation.
    public static func rotation(for zip: ZipCode) -> [WeatherReading] {
        switch zip {
        case .newYork:
            [
                WeatherReading(.clear, 75), WeatherReading(.partlyCloudy, 72), WeatherReading(.rain, 64),
                WeatherReading(.clear, 94, heatAdvisory: true),
            ]
        case .sanFrancisco:
            [
                WeatherReading(.partlyCloudy, 68), WeatherReading(.cloudy, 63), WeatherReading(.clear, 65),
                WeatherReading(.rain, 59),
            ]
        case .seattle:
            [
                WeatherReading(.cloudy, 60), WeatherReading(.rain, 57), WeatherReading(.partlyCloudy, 62),
                WeatherReading(.rain, 55),
            ]
        default:
            [WeatherReading(.clear, 72)]
        }
    }

    /// The next reading for `zip`, advancing its rotation.
    public func next(for zip: ZipCode) -> WeatherReading {
        let rotation = replacedRotations[zip] ?? Self.rotation(for: zip)
        let position = positions.withLock { positions in
            defer { positions[zip, default: 0] += 1 }
            return positions[zip, default: 0]
        }
        return rotation[position % rotation.count]
    }
}

/// How the app tells a person it is nice out (a notification on a phone; a line headless).
nonisolated public struct WeatherNotifier: Sendable {
    public var alert: @Sendable (String) -> Void

    public init(alert: @escaping @Sendable (String) -> Void) { self.alert = alert }
}
