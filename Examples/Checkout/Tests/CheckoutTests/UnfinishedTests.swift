import Checkout
import Cog
import CogTesting
import Foundation
import Testing

/// Which test that never finishes normally runs (`CHECKOUT_UNFINISHED=crash`, `hang` or
/// `stall`); none without it. `.ci/run` runs each under `COG_TRACE=failures` and checks the
/// trace it leaves: marked crashed, terminated or stalled, or, after SIGKILL, cut short.
nonisolated let unfinishedMode = ProcessInfo.processInfo.environment["CHECKOUT_UNFINISHED"]

/// A courier's quote for shipping the basket, from work the test controls.
nonisolated let courier = Courier()

/// Shipping, quoted by the courier whenever the subtotal changes.
let shippingCentsCog = Cog<Int>.Async(default: 0, name: "checkout.shippingCents") { c in
    let subtotal = c[subtotalCentsCog]
    return .run { try await courier.quote(for: subtotal) }
}

/// A courier that answers after `delay`, or never when it is nil.
nonisolated final class Courier: Sendable {
    let delay: Duration? = unfinishedMode == "stall" ? .seconds(30) : nil

    func quote(for subtotal: Int) async throws -> Int {
        guard let delay else {
            // Waits for an answer that never comes and that cancellation does not end.
            await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            return 0
        }
        try await Task.sleep(for: delay)
        return subtotal >= 5_000 ? 0 : 495
    }
}

struct UnfinishedTests {
    /// Three turns, then a force-unwrapped nil: the process traps (SIGILL).
    @Test(.enabled(if: unfinishedMode == "crash")) func aPriceForAnUnknownItemCrashes() {
        let cogs = Cogs.forTesting()
        cogs.add("mug")
        cogs.add("tea")
        cogs.add("pot")
        let spoon: Int? = catalogue["spoon"]
        let total = cogs.peek(totalCentsCog) + spoon!
        #expect(total > 0)
    }

    /// Three turns, then a wait for a shipping quote the courier never answers: CI's timeout
    /// ends it.
    @Test(.enabled(if: unfinishedMode == "hang")) func theShippingQuoteNeverComes() async {
        await fillTheBasketAndAwaitTheQuote()
    }

    /// The same wait for a courier that answers after 30 s: no turn meanwhile, so with
    /// `COG_TRACE_STALL=2` the trace is marked stalled while the test still runs.
    @Test(.enabled(if: unfinishedMode == "stall")) func theShippingQuoteIsSlow() async {
        await fillTheBasketAndAwaitTheQuote()
    }

    /// Three turns, then a wait for the courier's quote.
    private func fillTheBasketAndAwaitTheQuote() async {
        let cogs = Cogs.forTesting()
        cogs.add("mug")
        cogs.add("tea")
        cogs.add("pot")
        let quote = await cogs.refresh(shippingCentsCog).outcome
        #expect(quote.name == "success")
    }
}
