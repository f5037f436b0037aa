import Checkout
import Cog
import CogTesting
import XCTest

/// Plain XCTest tests: an `XCTestCase`, not a recording base class, in the shape that runs on
/// Linux (docs/recording-ci-failures.md, "XCTest on Linux"): the class is nonisolated, as
/// XCTest's are; a synchronous test enters the main actor, where XCTest runs it; a test that
/// waits is an `async` main-actor method.
nonisolated final class ReceiptTests: XCTestCase {
    func testATotalIsTheSubtotalLessTheDiscount() {
        MainActor.assumeIsolated {
            let cogs = Cogs.forTesting()
            cogs.add("pot", count: 2)
            cogs.enterDiscountCode("TEN")
            XCTAssertEqual(cogs.peek(totalCentsCog), 8_400 - 840)
        }
    }

    func testAnUnknownCodeTakesNothingOff() {
        MainActor.assumeIsolated {
            let cogs = Cogs.forTesting()
            cogs.add("pot")
            cogs.enterDiscountCode("TEM")
            // Deliberately wrong with CHECKOUT_FAIL=1.
            XCTAssertEqual(cogs.peek(discountCentsCog), failsOnPurpose ? 420 : 0)
        }
    }

    /// An async test that waits for a receipt which, with CHECKOUT_FAIL=1, never comes: its
    /// wait times out.
    @MainActor func testTheReceiptArrives() async {
        let cogs = Cogs.forTesting()
        cogs.add("mug")
        let receipt = expectation(description: "the receipt is printed")
        let total = cogs.peek(totalCentsCog)
        Task { @MainActor in
            if !failsOnPurpose, total == 1_500 { receipt.fulfill() }
        }
        await fulfillment(of: [receipt], timeout: failsOnPurpose ? 0.5 : 60)
    }
}
