import Cog
import CogTesting
import Foundation
import Testing
import TipJar

/// The example's tests. With `TIPJAR_FAIL=1` the last expectation is wrong on purpose, so the
/// `.cogTrace` trait writes the runtime's trace for `coginspect` to open.
@Suite(.cogTrace)
struct TipJarTests {
    @Test func theTotalIncludesTheTip() {
        let cogs = Cogs.forTesting()
        cogs.enterBill(cents: 4_000)
        #expect(cogs.peek(tipCentsCog) == 600)
        cogs.chooseTip(percent: 20)
        let expected = ProcessInfo.processInfo.environment["TIPJAR_FAIL"] == "1" ? 4_900 : 4_800
        #expect(cogs.peek(totalCentsCog) == expected)
    }
}

/// A dinner whose tip lands on half a cent, recorded with `COG_TRACE=always` for the replay test
/// in `Replays/` (see the README).
@Suite(.cogTrace)
struct DinnerTests {
    @Test func aDinnerForTwo() {
        let cogs = Cogs.forTesting()
        cogs.enterBill(cents: 1_050)
        #expect(cogs.peek(tipCentsCog) == 158)
        cogs.chooseTip(percent: 18)
        #expect(cogs.peek(totalCentsCog) == 1_239)
        cogs.enterBill(cents: 2_475)
        #expect(cogs.peek(totalCentsCog) == 2_921)
    }
}
