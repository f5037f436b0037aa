import Foundation
import Testing

@testable import CogTraceFormat

/// Durations, dates and other Foundation values record readably and read back exactly.
@Suite("Recorded value coding")
struct RecordedValueCodingTests {
    private struct Appointment: Codable, Equatable {
        let title: String
        let at: Date
    }

    @Test func aDurationRecordsAsSecondsAndReadsBack() throws {
        let value = TraceValue(pending: Duration.seconds(3_600))
        #expect(value.json == .int(3_600) || value.json == .double(3_600))
        #expect(value.text == "3600.0 seconds")
        let half = try #require(RecordedValueCoding.encode(Duration.milliseconds(1_500)))
        #expect(half == .double(1.5))
        #expect(try RecordedValueCoding.decode(Duration.self, from: half) == .milliseconds(1_500))
    }

    @Test func anOptionalDurationRecordsLikeTheDuration() {
        let some: Duration? = .seconds(30)
        let none: Duration? = nil
        #expect(
            TraceValue(pending: some as Any).json == .int(30) || TraceValue(pending: some as Any).json == .double(30))
        #expect(TraceValue(pending: none as Any).json == .null)
    }

    @Test func aDateRecordsAsISO8601EvenInsideAValue() throws {
        let date = Date(timeIntervalSince1970: 1_796_083_200)  // 2026-12-01T00:00:00Z
        let value = TraceValue(pending: Appointment(title: "standup", at: date))
        #expect(value.json?["at"] == .string("2026-12-01T00:00:00Z"))
        #expect(TraceValue(pending: date).text == "2026-12-01T00:00:00Z")
        let back = try RecordedValueCoding.decode(Appointment.self, from: try #require(value.json))
        #expect(back == Appointment(title: "standup", at: date))
        let fractional = date.addingTimeInterval(0.25)
        let encoded = try #require(RecordedValueCoding.encode(fractional))
        #expect(encoded == .string("2026-12-01T00:00:00.250Z"))
        #expect(try RecordedValueCoding.decode(Date.self, from: encoded) == fractional)
    }

    @Test func tracesWrittenWithCodablesOwnFormsStillReadBack() throws {
        let words = try JSONParser.parse(Data(#"[195,2884905626637434880]"#.utf8))
        #expect(try RecordedValueCoding.decode(Duration.self, from: words) == .seconds(3_600))
        let reference = try RecordedValueCoding.decode(Date.self, from: .double(0))
        #expect(reference == Date(timeIntervalSinceReferenceDate: 0))
    }

    @Test func foundationIdentifiersReadAsTheirText() throws {
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(TraceValue(pending: uuid).text == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(TraceValue(pending: try #require(URL(string: "https://example.com/a"))).text == "https://example.com/a")
        #expect(TraceValue(pending: Data([1, 2, 3])).text == "3 bytes")
    }
}
