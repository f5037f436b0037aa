import Foundation

/// How a runtime value becomes a trace's structured JSON and back, in one place so recording
/// and replay agree. `Codable` decides the shape, except where Swift's own encoding is
/// unreadable in a trace: a `Duration` is a number of seconds (Codable gives two 64-bit words
/// of attoseconds) and a `Date` is an ISO 8601 string (Codable gives seconds since 2001).
/// Traces written before this read back too: the decoder also takes the Codable forms. Sets and
/// dictionaries are written in one order whatever the hash seed (`UnorderedCollections.swift`).
package enum RecordedValueCoding {
    /// The structured form of `value`, or nil when it is not `Encodable` or fails to encode.
    package static func encode(_ value: Any) -> JSONValue? {
        if let duration = value as? Duration { return .double(seconds(of: duration)) }
        guard let encodable = value as? any Encodable else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(isoText(of: date))
        }
        guard let data = try? encoder.encode(encodable), let json = try? JSONParser.parse(data) else { return nil }
        // A set or a dictionary lists its elements in hash order, which changes from process to
        // process: they are written in one order, so equal values always read the same.
        guard json.holdsSeveralElements else { return json }
        return json.canonical(UnorderedCollectionFinder.find(in: encodable))
    }

    /// `json` read back as `type`.
    /// - Throws: the decoder's error when the JSON does not fit the type.
    package static func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws -> T {
        if type == Duration.self, let seconds = json.doubleValue ?? json.intValue.map(Double.init),
            let duration = Duration.seconds(seconds) as? T
        {
            return duration
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            if let seconds = try? container.decode(Double.self) { return Date(timeIntervalSinceReferenceDate: seconds) }
            let text = try container.decode(String.self)
            guard let date = date(from: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(text)' is not an ISO 8601 date")
            }
            return date
        }
        return try decoder.decode(type, from: Data(json.jsonText.utf8))
    }

    /// A readable text for values whose description is not, or nil to use the description.
    package static func text(of value: Any) -> String? {
        switch value {
        case let date as Date: isoText(of: date)
        case let url as URL: url.absoluteString
        case let uuid as UUID: uuid.uuidString
        case let data as Data: "\(data.count) bytes"
        default: nil
        }
    }

    /// A duration's length in seconds, to the attosecond as far as a `Double` holds it.
    static func seconds(of duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// A date as ISO 8601 in UTC, with milliseconds when it has a fraction of a second.
    static func isoText(of date: Date) -> String {
        let whole = date.timeIntervalSinceReferenceDate.rounded(.down) == date.timeIntervalSinceReferenceDate
        return (whole ? plainStyle : fractionalStyle).format(date)
    }

    /// The date an ISO 8601 text names, with or without a fraction of a second.
    static func date(from text: String) -> Date? {
        (try? fractionalStyle.parse(text)) ?? (try? plainStyle.parse(text))
    }

    private static let plainStyle = Date.ISO8601FormatStyle()
    private static let fractionalStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
