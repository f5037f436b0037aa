import Testing

@testable import CogTraceFormat

/// Turn numbers come from files and from what people type, so any two of them compare and
/// hash without arithmetic that could trap.
@Suite("Turn numbers")
struct TurnNumberTests {
    @Test(arguments: [(Int.min, Int.max), (Int.max, Int.min), (Int.min, 1), (Int.max, -1), (0, Int.min)])
    func numbersFarApartCompareWithoutOverflow(_ pair: (Int, Int)) {
        let (a, b) = (TurnNumber(pair.0), TurnNumber(pair.1))
        #expect(a != b)
        #expect((a < b) == (pair.0 < pair.1))
        #expect(a == TurnNumber(pair.0))
        #expect(Set([a, b, TurnNumber(pair.0)]).count == 2)
    }

    @Test func aTurnSteppingLikeAnIntegerStillMakesRanges() {
        let range = TurnNumber(3)...TurnNumber(6)
        #expect(range.map(\.rawValue) == [3, 4, 5, 6])
        #expect(TurnNumber(3).distance(to: 6) == 3)
    }
}
