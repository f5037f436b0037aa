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
