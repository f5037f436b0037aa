import Checkout
import Cog
import CogTesting
import Foundation
import Testing

/// Whether this run fails on purpose (`CHECKOUT_FAIL=1`): `.ci/run` checks that exactly the
/// deliberate failures leave traces when the suite runs with `COG_TRACE=failures`.
nonisolated let failsOnPurpose = ProcessInfo.processInfo.environment["CHECKOUT_FAIL"] == "1"

/// Plain Swift Testing tests: no trait, no helper but `Cogs.forTesting()`.
struct BasketTests {
    @Test func anEmptyBasketCostsNothing() {
        let cogs = Cogs.forTesting()
        #expect(cogs.peek(totalCentsCog) == 0)
    }

    @Test func quantitiesAddUpPerItem() {
        let cogs = Cogs.forTesting()
        cogs.add("mug")
        cogs.add("mug")
        cogs.add("tea", count: 3)
        #expect(cogs.peek(quantityCogs["mug"]) == 2)
        #expect(cogs.peek(subtotalCentsCog) == 2 * 1_500 + 3 * 800)
    }

    @Test func theDiscountNeedsTwentyPounds() {
        let cogs = Cogs.forTesting()
        cogs.enterDiscountCode("TEN")
        cogs.add("tea")
        #expect(cogs.peek(discountCentsCog) == 0)
        cogs.add("pot")
        // Deliberately wrong with CHECKOUT_FAIL=1: the discount is 500, not 50.
        #expect(cogs.peek(discountCentsCog) == (failsOnPurpose ? 50 : 500), "ten percent of 50.00")
        cogs.add("mug")
    }

    @Test(arguments: ["mug", "tea", "pot"]) func oneOfEachCostsItsPrice(sku: String) {
        let cogs = Cogs.forTesting()
        cogs.add(sku)
        #expect(cogs.peek(totalCentsCog) == catalogue[sku])
    }
}
