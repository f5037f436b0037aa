import Cog
import CogTesting
import Testing

private final class CallCounter {
    var calls = 0
}

private let initialCalls = CallCounter()
private let _countedCog = Cog<Int>.Manual(name: "counted") {
    initialCalls.calls += 1
    return 7
}
private let rowInitialCalls = CallCounter()
private let _rowTitleCogs = CogBox<String, Int>.Manual(name: "rowTitle") { key in
    rowInitialCalls.calls += 1
    return "row \(key)"
}
private let _unnamedCog = Cog<Int>.Manual { 0 }
private let unnamedLine = #line - 1
private let _namedCog = Cog<Int>.Manual(name: "settings.volume") { 0 }
let namedCog = _namedCog.readOnly
private let doubledCogs = CogBox<Int, String>(name: "doubled") { c, key in key.count * 2 }

/// A value with no equality: every write counts as a change.
private struct Opaque {
    var payload: Int
}
private let _opaqueCog = Cog<Opaque>.Manual(name: "opaque") { Opaque(payload: 0) }
private let _lastDigitCog = Cog<Int>.Manual(name: "lastDigit", equals: { $0 % 10 == $1 % 10 }, { 0 })

@Suite("Declarations")
struct DeclarationTests {
    @Test func manualInitialClosureRunsOncePerState() {
        initialCalls.calls = 0
        let first = Cogs.forTesting()
        _ = first.peek(_countedCog)
        _ = first.peek(_countedCog)
        first.turn { c in c[_countedCog] += 1 }
        #expect(initialCalls.calls == 1)
        let second = Cogs.forTesting()
        #expect(second.peek(_countedCog) == 7)
        #expect(initialCalls.calls == 2)
    }

    @Test func keyedManualInitialTakesTheKeyOncePerKey() {
        rowInitialCalls.calls = 0
        let cogs = Cogs.forTesting()
        #expect(cogs.peek(_rowTitleCogs[1]) == "row 1")
        #expect(cogs.peek(_rowTitleCogs[2]) == "row 2")
        #expect(cogs.peek(_rowTitleCogs[1]) == "row 1")
        #expect(rowInitialCalls.calls == 2)
    }

    @Test func labelsDefaultToFileIDAndLineAndKeyedStatesRenderTheirKey() {
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        _ = cogs.peek(_unnamedCog)
        _ = cogs.peek(namedCog)
        _ = cogs.peek(doubledCogs["ab"])
        #expect(
            log.lines(startingWith: "create") == [
                "create CogTests/DeclarationTests.swift:\(unnamedLine) manual",
                "create settings.volume manual",
                "create doubled[ab] automatic",
            ])
    }

    @Test func readOnlyProjectionReadsTheSourceState() {
        let cogs = Cogs.forTesting()
        cogs.turn { c in c[_namedCog] = 11 }
        #expect(cogs.peek(namedCog) == 11)
        #expect(cogs[namedCog] == 11)
    }

    @Test func customEqualityDiscardsWritesItCallsEqual() {
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        cogs.turn { c in c[_lastDigitCog] = 10 }
        #expect(cogs.peek(_lastDigitCog) == 0)
        cogs.turn { c in c[_lastDigitCog] = 13 }
        #expect(cogs.peek(_lastDigitCog) == 13)
        #expect(
            log.lines(startingWith: "write", "discard-write") == [
                "discard-write lastDigit 10", "write lastDigit 0 -> 13",
            ])
    }

    @Test func nonEquatableValuesAlwaysCountAsChanged() {
        let cogs = Cogs.forTesting()
        let spy = ObservationSpy { _ = cogs[_opaqueCog] }
        cogs.turn { c in c[_opaqueCog] = Opaque(payload: 0) }
        #expect(spy.changes == 1)
        cogs.turn { c in c[_opaqueCog] = Opaque(payload: 0) }
        #expect(spy.changes == 2)
    }

    @Test func whileObservedWithoutResetFailsAtDeclaration() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                _ = Cog<Int>.Manual(name: "draft", lifetime: .whileObserved(resetToInitial: false)) { 0 }
            }
        }
        #expect(result.standardErrorText.contains("'draft' declares whileObserved(resetToInitial: false)"))
    }

    @Test func whileObservedWithResetIsAccepted() {
        let draft = Cog<String>.Manual(name: "draft", lifetime: .whileObserved(resetToInitial: true)) { "" }
        let cogs = Cogs.forTesting()
        #expect(cogs.peek(draft) == "")
    }
}
