import Cog
import CogTesting
import Foundation
import Testing
import XCTest

/// Tests that fail on purpose, run only inside the subprocess `TraceOnFailureTests` starts (with
/// `COG_TRACE_DEMO=1`): what a real failing test leaves behind is what those tests check.
/// In a normal run they are skipped.
enum DeliberateFailure {
    nonisolated static let isEnabled = ProcessInfo.processInfo.environment["COG_TRACE_DEMO"] == "1"

    static let counterCog = Cog<Int>.Manual(name: "demo.counter") { 0 }
    static let doubledCog = Cog<Int>(name: "demo.doubled") { c in c[counterCog] * 2 }

    /// Three turns named `step 1`…`step 3` on a fresh runtime, which the trait records.
    static func threeSteps() -> Cogs {
        let cogs = Cogs.forTesting()
        _ = cogs[doubledCog]
        for step in 1...3 { cogs.turn("step \(step)") { $0[counterCog] = step } }
        return cogs
    }

    /// One turn, then an expectation that fails.
    static func failAfterOneTurn() {
        let cogs = Cogs.forTesting()
        cogs.turn("step 1") { $0[counterCog] = 1 }
        #expect(cogs[doubledCog] == 3, "one doubled is not three")
    }
}

struct DemoError: Error {}

@Suite(
    .cogTrace,
    .enabled(
        if: DeliberateFailure.isEnabled, "a demo that fails on purpose, not a failing test; TraceOnFailureTests runs it"
    ))
struct DemoTraceTests {
    @Test func demoExpectationFails() {
        let cogs = DeliberateFailure.threeSteps()
        #expect(cogs[DeliberateFailure.doubledCog] == 7)
    }

    @Test func demoThrows() throws {
        _ = DeliberateFailure.threeSteps()
        throw DemoError()
    }

    @Test func demoPasses() {
        let cogs = DeliberateFailure.threeSteps()
        #expect(cogs[DeliberateFailure.doubledCog] == 6)
    }

    @Test func demoKnownIssue() {
        let cogs = DeliberateFailure.threeSteps()
        withKnownIssue("a known bug") { #expect(cogs[DeliberateFailure.doubledCog] == 7) }
    }
}

/// Fails after the first of three steps, then takes two more: its trace should open at the
/// failure, not at the end.
@Suite(
    .cogTrace,
    .enabled(
        if: DeliberateFailure.isEnabled, "a demo that fails on purpose, not a failing test; TraceOnFailureTests runs it"
    ))
struct DemoMidwayTests {
    @Test func demoFailsAfterTheFirstStep() {
        let cogs = Cogs.forTesting()
        _ = cogs[DeliberateFailure.doubledCog]
        cogs.turn("step 1") { $0[DeliberateFailure.counterCog] = 1 }
        #expect(cogs[DeliberateFailure.doubledCog] == 3, "one doubled is not three")
        cogs.turn("step 2") { $0[DeliberateFailure.counterCog] = 2 }
        cogs.turn("step 3") { $0[DeliberateFailure.counterCog] = 3 }
    }
}

/// A test stuck past its one-minute limit where cancellation cannot reach it: the runner then
/// waits for it forever, so only a watchdog can leave its trace. Run by hand (it takes a minute
/// and never ends): `COG_TRACE_DEMO_STUCK=1 swift test --filter demoStuckPastItsTimeLimit`,
/// then stop it once `cog-trace:` says where the trace is.
@Suite(
    .cogTrace,
    .enabled(
        if: ProcessInfo.processInfo.environment["COG_TRACE_DEMO_STUCK"] == "1",
        "a demo that hangs on purpose; run it by hand with COG_TRACE_DEMO_STUCK=1"))
struct DemoStuckTests {
    @Test(.timeLimit(.minutes(1))) func demoStuckPastItsTimeLimit() async {
        _ = DeliberateFailure.threeSteps()
        await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
    }
}

final class DemoXCTraceTests: CogTraceTestCase {
    override func setUpWithError() throws {
        // Thrown as it is, the skip reads as the demo's reason; `XCTSkipUnless` would prefix
        // "required true value but got false", which reads like a failure.
        guard DeliberateFailure.isEnabled else {
            throw XCTSkip("a demo that fails on purpose, not a failing test; TraceOnFailureTests runs it")
        }
    }

    func testDemoAssertionFails() {
        MainActor.assumeIsolated {
            let cogs = DeliberateFailure.threeSteps()
            XCTAssertEqual(cogs[DeliberateFailure.doubledCog], 7)
        }
    }

    func testDemoPasses() {
        MainActor.assumeIsolated {
            let cogs = DeliberateFailure.threeSteps()
            XCTAssertEqual(cogs[DeliberateFailure.doubledCog], 6)
        }
    }
}
