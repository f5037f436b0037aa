import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

/// `TraceComparison` on the tour recording against copies with one thing changed, one copy per
/// kind of difference: each must be found at its turn and named for what it is.
@Suite("Comparing two recordings")
struct TraceComparisonTests {
    static let tour = try! String(
        contentsOf: RecordingFiles.folder.appendingPathComponent("tour.cogtrace"), encoding: .utf8)

    /// The tour with `old` replaced by `new` in the record of turn `sequence` only.
    private func tour(editing sequence: Int, _ old: String, _ new: String) throws -> TraceFile {
        var lines = Self.tour.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(lines.firstIndex { $0.hasPrefix("{\"type\":\"turn\",\"seq\":\(sequence),") })
        #expect(lines[index].contains(old), "turn \(sequence) has no '\(old)'")
        lines[index] = lines[index].replacingOccurrences(of: old, with: new)
        return try TraceFile.parse(lines.joined(separator: "\n"))
    }

    private func compare(_ other: TraceFile, from start: TurnNumber? = nil) throws -> TraceComparison {
        try TraceComparison(try TraceFile.parse(Self.tour), other, from: start)
    }

    @Test func aRecordingAgreesWithItself() throws {
        let comparison = try compare(try TraceFile.parse(Self.tour))
        #expect(comparison.firstDivergence == nil)
        #expect(comparison.turnsCompared == 25)
    }

    @Test func aDifferentTurnNameIsTheFirstThingSaid() throws {
        let other = try tour(editing: 9, "\"name\":\"selectLocation(_:)\"", "\"name\":\"pickCity(_:)\"")
        let first = try #require(try compare(other).firstDivergence)
        #expect(first.turn == 9 && first.aspect == .turnName)
        #expect(first.detail == "the turn is 'selectLocation(_:)' here, 'pickCity(_:)' in the other")
        #expect(!first.afterTurn)
    }

    @Test func aDifferentWriteNamesTheStateAndBothValues() throws {
        let other = try tour(
            editing: 9, "\"new\":{\"t\":\"94105\",\"j\":\"94105\"}", "\"new\":{\"t\":\"98101\",\"j\":\"98101\"}")
        let comparison = try compare(other)
        let first = try #require(comparison.firstDivergence)
        #expect(first.turn == 9 && first.aspect == .writes)
        #expect(
            first.detail == "weather.currentZip: here 10001 → 94105 (written); in the other 10001 → 98101 (written)")
        #expect(comparison.differences.count == 1)
    }

    /// A set's or a dictionary's description lists it in hash order, which another process
    /// changes: values with the same JSON are the same, whatever their text says.
    @Test func valuesCompareAsDataNotAsTheirDescription() throws {
        let other = try tour(
            editing: 9, "\"new\":{\"t\":\"94105\",\"j\":\"94105\"}",
            "\"new\":{\"t\":\"94105 (described otherwise)\",\"j\":\"94105\"}")
        #expect(try compare(other).firstDivergence == nil)
        let textOnly = try tour(
            editing: 9, "\"new\":{\"t\":\"94105\",\"j\":\"94105\"}", "\"new\":{\"t\":\"94105 otherwise\"}")
        #expect(try compare(textOnly).firstDivergence?.turn == 9, "without JSON on one side the text decides")
    }

    @Test func aDifferentRecomputedValueIsFoundFieldByField() throws {
        let other = try tour(editing: 13, "\"temperatureF\":72", "\"temperatureF\":99")
        let first = try #require(try compare(other).firstDivergence)
        #expect(first.turn == 13 && first.aspect == .writes)
        #expect(first.detail.hasPrefix("weather.forecast[10001]: here clear 75°F → partlyCloudy 72°F (written)"))
        #expect(first.detail.hasSuffix("[.temperatureF is 72 here, 99 in the other]"))
        let recompute = try tour(
            editing: 6, "\"s\":10,\"old\":{\"t\":\"false\",\"j\":false},\"new\":{\"t\":\"true\",\"j\":true}",
            "\"s\":10,\"old\":{\"t\":\"false\",\"j\":false},\"new\":{\"t\":\"false\",\"j\":false}")
        let second = try #require(try compare(recompute).firstDivergence)
        #expect(second.turn == 6 && second.aspect == .recomputes)
        #expect(
            second.detail
                == "weather.isNice[10001]: here false → true (recomputed because weather.forecast[10001] changed); "
                + "in the other false → false (recomputed because weather.forecast[10001] changed)")
    }

    @Test func aDifferentEdgeSetNamesTheEdge() throws {
        let other = try tour(editing: 9, "{\"e\":\"edgeAdded\",\"s\":9,\"p\":15},", "")
        let first = try #require(try compare(other).firstDivergence)
        #expect(first.turn == 9 && first.aspect == .edges)
        #expect(first.detail == "only here: + weather.isNiceHere reads weather.isNice[94105]")
    }

    @Test func aDifferentAsyncStepIsNamed() throws {
        let other = try tour(
            editing: 12, "\"e\":\"generationStarted\",\"s\":5,\"g\":2", "\"e\":\"generationStarted\",\"s\":5,\"g\":7")
        let first = try #require(try compare(other).firstDivergence)
        #expect(first.turn == 12 && first.aspect == .async)
        #expect(
            first.detail
                == "step 1: here generation 2 of weather.forecast[10001] started (latest); "
                + "in the other generation 7 of weather.forecast[10001] started (latest)")
    }

    @Test func aShorterRecordingEndsTheComparison() throws {
        // Turn 25, the work after it and the trailer go: the recording ends after turn 24+.
        let lines = Self.tour.split(separator: "\n").filter {
            !$0.contains("\"seq\":25,") && !$0.contains("\"after\":25,") && !$0.contains("\"type\":\"trailer\"")
        }
        let comparison = try compare(try TraceFile.parse(lines.joined(separator: "\n")))
        let first = try #require(comparison.firstDivergence)
        #expect(first.aspect == .turnCount && first.turn == 25 && first.otherTurn == nil)
        #expect(first.detail == "the other recording ends after 24 turns; this goes on")
    }

    @Test func comparingFromALaterTurnSkipsEarlierDifferences() throws {
        let other = try tour(editing: 9, "\"name\":\"selectLocation(_:)\"", "\"name\":\"pickCity(_:)\"")
        #expect(try compare(other, from: 10).firstDivergence == nil)
    }
}
