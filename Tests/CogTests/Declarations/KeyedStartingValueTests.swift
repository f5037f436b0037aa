import Cog
import CogTesting
import Testing

/// The deprecated value-first initializers, called through a protocol whose witnesses are
/// deprecated: this suite checks that old code still behaves, and the build stays free of
/// warnings (a deprecated witness of a plain requirement raises none where it is called).
private protocol ValueFirstDeclarations {
    typealias Counts = CogBox<Int, String>.Manual
    typealias Equality = @MainActor (Int, Int) -> Bool
    static func manual(_ value: Int, name: String) -> Counts
    static func manual(_ value: [Int], name: String) -> CogBox<[Int], String>.Manual
    static func manual(_ value: Int, equals: @escaping Equality, name: String) -> Counts
    static func manual(_ value: Int, lifetime: ManualCogLifetime, name: String) -> Counts
}

private enum ValueFirst: ValueFirstDeclarations {
    @available(*, deprecated, message: "calls the deprecated initializer on purpose")
    static func manual(_ value: Int, name: String) -> Counts { .init(value, name: name) }
    @available(*, deprecated, message: "calls the deprecated initializer on purpose")
    static func manual(_ value: [Int], name: String) -> CogBox<[Int], String>.Manual { .init(value, name: name) }
    @available(*, deprecated, message: "calls the deprecated initializer on purpose")
    static func manual(_ value: Int, equals: @escaping Equality, name: String) -> Counts {
        .init(value, equals: equals, name: name)
    }
    @available(*, deprecated, message: "calls the deprecated initializer on purpose")
    static func manual(_ value: Int, lifetime: ManualCogLifetime, name: String) -> Counts {
        .init(value, lifetime: lifetime, name: name)
    }
}

private let valueFirst: any ValueFirstDeclarations.Type = ValueFirst.self
private let _countCogs = valueFirst.manual(0, name: "starting.counts")
private let _closureCountCogs = CogBox<Int, String>.Manual(name: "starting.closureCounts") { 0 }
private let _boxes = valueFirst.manual([1, 2], name: "starting.lists")

/// `CogBox<Value, Key>.Manual(startingValue)`: a keyed source declared by one starting value for
/// every key, as the public library spells it, behaving as the closure form with a constant.
@Suite("Keyed sources by starting value")
struct KeyedStartingValueTests {
    @Test func everyKeyStartsAtTheValueAndKeysAreIndependent() {
        let cogs = Cogs.forTesting()
        #expect(cogs.peek(_countCogs["a"]) == 0)
        #expect(cogs.peek(_countCogs["b"]) == 0)
        cogs.turn(_countCogs["a"], to: 5)
        #expect(cogs.peek(_countCogs["a"]) == 5)
        #expect(cogs.peek(_countCogs["b"]) == 0, "writing one key leaves its siblings alone")
        #expect(cogs.peek(_closureCountCogs["a"]) == 0, "another declaration is another family")
    }

    @Test func itReadsLikeTheClosureFormThroughItsProjection() {
        let cogs = Cogs.forTesting()
        let exposed = _countCogs.readOnly
        let doubled = Cog<Int>(name: "starting.doubled") { c in c[exposed["a"]] * 2 }
        #expect(cogs.peek(doubled) == 0)
        cogs.turn(_countCogs["a"], to: 21)
        #expect(cogs.peek(doubled) == 42)
        #expect(cogs.peek(exposed["a"]) == cogs.peek(_countCogs["a"]))
    }

    @Test func anEqualWriteIsGatedAndAnExplicitRuleWins() {
        let cogs = Cogs.forTesting()
        var runs = 0
        let watched = Cog<Int>(name: "starting.watched") { c in
            runs += 1
            return c[_countCogs["x"]]
        }
        #expect(cogs[watched] == 0)
        cogs.turn(_countCogs["x"], to: 0)
        _ = cogs[watched]
        #expect(runs == 1, "== discarded the equal write")

        let alwaysEqual = valueFirst.manual(0, equals: { _, _ in true }, name: "starting.frozen")
        cogs.turn(alwaysEqual["k"], to: 9)
        #expect(cogs.peek(alwaysEqual["k"]) == 0, "the given rule kept the old value")
    }

    @Test func aWhileObservedFamilyTakesItsLifetime() {
        let cogs = Cogs.forTesting()
        let ephemeral = valueFirst.manual(
            3, lifetime: .whileObserved(resetToInitial: true), name: "starting.ephemeral")
        #expect(cogs.peek(ephemeral["k"]) == 3)
        #expect(cogs.peek(_boxes["k"]) == [1, 2])
    }
}
