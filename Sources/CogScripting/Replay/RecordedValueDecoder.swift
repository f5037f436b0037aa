import Cog
import CogTrace
import Foundation

/// Reads a trace's structured values (and key texts) back into typed values, the way
/// `RecordedValueCoding` wrote them.
struct RecordedValueDecoder: CogRecordedValueDecoder {
    /// The recorded value's structured form; nil when the recording has only its text.
    let value: JSONValue?

    func value<T: Decodable>(as type: T.Type) throws -> T {
        try decoded(as: type)
    }

    func decoded<T: Decodable>(as type: T.Type) throws(ReplayError) -> T {
        guard let value else {
            throw ReplayError("the recording keeps no structured value to decode as \(type); make it Encodable")
        }
        return try Self.decode(type, from: value)
    }

    /// A key's trace text read as `type`: as a JSON string first (`"10001"`), then as a JSON
    /// literal (`42`, `true`).
    func key<T: Decodable>(_ text: String, as type: T.Type) throws -> T {
        if let key = try? Self.decode(type, from: .string(text)) { return key }
        if let literal = try? JSONParser.parse(text), let key = try? Self.decode(type, from: literal) { return key }
        throw ReplayError("cannot read key '\(text)' as \(type)")
    }

    private static func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws(ReplayError) -> T {
        do {
            return try RecordedValueCoding.decode(type, from: json)
        } catch {
            throw ReplayError("cannot decode \(json.jsonText.prefix(80)) as \(type): \(error)")
        }
    }
}
