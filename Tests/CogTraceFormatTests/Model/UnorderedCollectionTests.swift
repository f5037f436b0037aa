import Foundation
import Testing

@testable import CogTraceFormat

/// Sets and dictionaries list their elements in hash order, which the process's hash seed
/// changes; a recording must write equal values alike, so a replay in another process agrees.
@Suite("Unordered collections recorded in one order")
struct UnorderedCollectionTests {
    private struct Point: Hashable, Codable {
        var x: Int
        var y: Int
    }

    private struct Shelf: Codable, Equatable {
        var tags: Set<String>
        var stock: [Point: Int]
        var byAisle: [String: Set<Int>]
        var rows: [[Point: Set<String>]]
        var ordered: [Int]
    }

    private static let words = (0..<24).map { "item\($0)" }

    /// Two equal sets whose iteration orders differ: built with different capacities, as two
    /// processes with different seeds would order one set.
    private func twoOrders<Element: Hashable>(of elements: [Element]) throws -> (Set<Element>, Set<Element>) {
        let small = Set(elements)
        for capacity in [64, 256, 1_024, 4_096, 16_384] {
            var large = Set<Element>(minimumCapacity: capacity)
            large.formUnion(elements.reversed())
            if Array(large) != Array(small) { return (small, large) }
        }
        throw Unordered.sameOrderEverywhere
    }

    private enum Unordered: Error { case sameOrderEverywhere }

    private func dictionary<Value>(_ keys: Set<Point>, _ value: (Point) -> Value) -> [Point: Value] {
        var result: [Point: Value] = [:]
        result.reserveCapacity(keys.count)
        for key in keys { result[key] = value(key) }
        return result
    }

    @Test func equalSetsAndDictionariesWriteTheSameJSONWhateverTheirOrder() throws {
        let (tagsA, tagsB) = try twoOrders(of: Self.words)
        let points = (0..<24).map { Point(x: $0, y: $0 * 7 % 5) }
        let (pointsA, pointsB) = try twoOrders(of: points)
        let stockA = dictionary(pointsA) { $0.x * 10 }
        let stockB = dictionary(pointsB) { $0.x * 10 }
        let (aisleA, aisleB) = try twoOrders(of: Array(0..<30))
        let first = Shelf(
            tags: tagsA, stock: stockA, byAisle: ["a": aisleA, "b": aisleB],
            rows: [dictionary(pointsA) { _ in tagsA }], ordered: [3, 1, 2])
        let second = Shelf(
            tags: tagsB, stock: stockB, byAisle: ["a": aisleB, "b": aisleA],
            rows: [dictionary(pointsB) { _ in tagsB }], ordered: [3, 1, 2])
        #expect(first == second)
        let plain = JSONEncoder()
        plain.outputFormatting = .sortedKeys
        #expect(
            try plain.encode(first) != plain.encode(second),
            "the encoder's own output differs, or this test checks nothing")

        let left = try #require(RecordedValueCoding.encode(first))
        let right = try #require(RecordedValueCoding.encode(second))
        #expect(left.jsonText == right.jsonText)
        #expect(try RecordedValueCoding.decode(Shelf.self, from: left) == first)
        #expect(left["ordered"] == .array([.int(3), .int(1), .int(2)]), "an array keeps its order")
        #expect(TraceValue(settling: first) == TraceValue(settling: second))
    }

    @Test func aSetOfSetsIsSortedInsideOut() throws {
        let (innerA, innerB) = try twoOrders(of: Self.words)
        let left = try #require(RecordedValueCoding.encode([innerA]))
        let right = try #require(RecordedValueCoding.encode([innerB]))
        #expect(left == right)
        guard case .array(let outer) = left, case .array(let inner)? = outer.first else {
            Issue.record("not an array of arrays: \(left.jsonText)")
            return
        }
        let texts = inner.compactMap(\.stringValue)
        #expect(texts == texts.sorted())
    }

    @Test func valuesWithoutJSONStillCompareByText() {
        #expect(TraceValue(text: "a") == TraceValue(text: "a"))
        #expect(TraceValue(text: "a") != TraceValue(text: "b"))
        #expect(TraceValue(text: "[1, 2]", json: .array([.int(1), .int(2)])) != TraceValue(text: "[1, 2]"))
        #expect(
            TraceValue(text: "[\"a\": 1, \"b\": 2]", json: .object([("a", .int(1)), ("b", .int(2))]))
                == TraceValue(text: "[\"b\": 2, \"a\": 1]", json: .object([("a", .int(1)), ("b", .int(2))])))
    }
}
