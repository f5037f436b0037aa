import Testing

@testable import Cog

/// Keyed states are found by `StateKey`: an `Int` key as itself, any other key boxed. Every key
/// type must still find its own state, hand the selector the key it was given, and label it as
/// before.
@Suite("State keys")
struct StateKeyTests {
    @Test func integerKeysAreHeldUnboxedAndOtherKeysBoxed() {
        #expect(StateKey(7).boxed == nil)
        #expect(StateKey(7) == StateKey(7))
        #expect(StateKey(7) != StateKey(8))
        #expect(StateKey("7").boxed != nil)
        #expect(StateKey(Int8(7)).boxed != nil)
        #expect(StateKey("a") != StateKey("b"))
        #expect(StateKey(7).text == "7")
        #expect(StateKey("zip 10001").text == "zip 10001")
        #expect(StateKey(-3).value(as: Int.self) == -3)
        #expect(StateKey("x").value(as: String.self) == "x")
        #expect(StateKey(Optional(5)).value(as: Int?.self) == 5)
        #expect(StateKey(Int?.none).value(as: Int?.self) == nil)
        #expect(StateKey(AnyHashable(9)).value(as: AnyHashable.self) == AnyHashable(9))
    }

    @Test func everyKeyTypeFindsItsOwnStateAndReceivesItsKey() {
        let byInt = CogBox<String, Int> { _, key in "int \(key)" }
        let bySmallInt = CogBox<String, Int8> { _, key in "int8 \(key)" }
        let byOptional = CogBox<String, Int?> { _, key in "optional \(key.map(String.init) ?? "none")" }
        let byText = CogBox<String, String> { _, key in "text \(key)" }
        let byAny = CogBox<String, AnyHashable> { _, key in "any \(key)" }
        let cogs = Cogs()
        #expect(cogs.peek(byInt[3]) == "int 3")
        #expect(cogs.peek(byInt[-3]) == "int -3")
        #expect(cogs.peek(bySmallInt[3]) == "int8 3")
        #expect(cogs.peek(byOptional[3]) == "optional 3")
        #expect(cogs.peek(byOptional[nil]) == "optional none")
        #expect(cogs.peek(byText["3"]) == "text 3")
        #expect(cogs.peek(byAny[AnyHashable(3)]) == "any 3")
        #expect(cogs.peek(byAny[AnyHashable("3")]) == "any 3")
    }

    /// `AnyHashable` makes integers of different types equal; a box keyed by `AnyHashable` keeps
    /// finding one state for them, as it did when every key was an `AnyHashable`.
    @Test func anAnyHashableKeyStillMatchesIntegersOfEveryType() {
        var runs = 0
        let byAny = CogBox<Int, AnyHashable> { _, key in
            runs += 1
            return key.hashValue == AnyHashable(3).hashValue ? 3 : 0
        }
        let cogs = Cogs()
        #expect(cogs.peek(byAny[AnyHashable(3)]) == 3)
        #expect(cogs.peek(byAny[AnyHashable(Int8(3))]) == 3)
        #expect(cogs.peek(byAny[AnyHashable(UInt(3))]) == 3)
        #expect(runs == 1)
        #expect(StateKey(AnyHashable(3)) == StateKey(AnyHashable(Int8(3))))
    }

    @Test func writesReachTheStateOfTheirKeyOnly() {
        let scores = CogBox<Int, Int>.Manual { key in key * 10 }
        let doubled = CogBox<Int, Int> { c, key in c[scores[key]] * 2 }
        let cogs = Cogs()
        #expect((0..<4).map { cogs.peek(doubled[$0]) } == [0, 20, 40, 60])
        cogs.turn { c in c[scores[2]] = 7 }
        #expect((0..<4).map { cogs.peek(doubled[$0]) } == [0, 20, 14, 60])
        cogs.turn { c in
            c[scores[3]] = c[scores[3]] + 1
            c[scores[3]] = c[scores[3]] + 1
        }
        #expect(cogs.peek(doubled[3]) == 64)
    }
}
