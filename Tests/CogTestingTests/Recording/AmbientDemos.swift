import Cog
import CogTesting
import Foundation
import Testing
import XCTest

/// Tests with no trait and no recording base class, failing on purpose: `AmbientRecordingTests`
/// runs them in a subprocess with `COG_TRACE=failures` and checks that exactly the failing
/// ones leave traces. Skipped in a normal run, like the demos in `DeliberateFailures.swift`.
@Suite(
    .enabled(
        if: DeliberateFailure.isEnabled,
        "a demo that fails on purpose, not a failing test; AmbientRecordingTests runs it"
    ))
struct DemoAmbientTests {
    @Test func demoAmbientFailsAfterTheSecondStep() {
        let cogs = Cogs.forTesting()
        _ = cogs[DeliberateFailure.doubledCog]
        cogs.turn("step 1") { $0[DeliberateFailure.counterCog] = 1 }
        cogs.turn("step 2") { $0[DeliberateFailure.counterCog] = 2 }
        #expect(cogs[DeliberateFailure.doubledCog] == 5, "two doubled is not five")
        cogs.turn("step 3") { $0[DeliberateFailure.counterCog] = 3 }
    }

    @Test func demoAmbientPasses() {
        let cogs = DeliberateFailure.threeSteps()
        #expect(cogs[DeliberateFailure.doubledCog] == 6)
    }

    @Test("a demo with a display name") func demoAmbientNamed() throws {
        _ = DeliberateFailure.threeSteps()
        throw DemoError()
    }

    @Test func demoAmbientWithoutARuntimeFails() {
        #expect(Bool(false), "no runtime, so no trace")
    }
}

/// Two suites with a test of the same name, one failing: the console names both `twin()`.
@Suite(.enabled(if: DeliberateFailure.isEnabled, "a demo; AmbientRecordingTests runs it"))
struct DemoAmbientTwinA {
    @Test func twin() {
        let cogs = DeliberateFailure.threeSteps()
        #expect(cogs[DeliberateFailure.doubledCog] == 6)
    }
}

@Suite(.enabled(if: DeliberateFailure.isEnabled, "a demo; AmbientRecordingTests runs it"))
struct DemoAmbientTwinB {
    @Test func twin() {
        let cogs = DeliberateFailure.threeSteps()
        #expect(cogs[DeliberateFailure.doubledCog] == 8, "the twin that fails")
    }
}

/// A plain `XCTestCase`: recorded by `COG_TRACE` through an observer of the runner.
nonisolated final class DemoAmbientXCTests: XCTestCase {
    override func setUpWithError() throws {
        guard DeliberateFailure.isEnabled else {
            throw XCTSkip("a demo that fails on purpose, not a failing test; AmbientRecordingTests runs it")
        }
    }

    func testDemoAmbientAssertionFails() {
        MainActor.assumeIsolated {
            let cogs = DeliberateFailure.threeSteps()
            XCTAssertEqual(cogs[DeliberateFailure.doubledCog], 7)
        }
    }

    func testDemoAmbientPasses() {
        MainActor.assumeIsolated {
            let cogs = DeliberateFailure.threeSteps()
            XCTAssertEqual(cogs[DeliberateFailure.doubledCog], 6)
        }
    }
}

/// Failing tests whose names no file system or console line takes as they are: each must still
/// leave a trace, under a safe name inside the trace directory.
@Suite(
    .enabled(
        if: DeliberateFailure.isEnabled,
        "a demo that fails on purpose, not a failing test; AmbientRecordingTests runs it"
    ))
struct DemoHostileNames {
    @Test("a name with a\nnewline") func demoHostileNewline() { DeliberateFailure.failAfterOneTurn() }
    @Test("a name with \u{1B}[31mred\u{1B}[0m in it") func demoHostileEscape() { DeliberateFailure.failAfterOneTurn() }
    @Test("../../up/and/out") func demoHostilePath() { DeliberateFailure.failAfterOneTurn() }
    @Test(.enabled(if: true))
    func
        demoHostileLongNameThatGoesOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOn()
    {
        DeliberateFailure.failAfterOneTurn()
    }
}

/// What the demo of a test that never ends does (`COG_TRACE_DEMO_UNFINISHED`): `crash` traps after
/// three turns. Run only by `UnfinishedTestTraceTests`, in a process of its own.
nonisolated let unfinishedDemo = ProcessInfo.processInfo.environment["COG_TRACE_DEMO_UNFINISHED"]

struct DemoUnfinished {
    @Test(.enabled(if: unfinishedDemo == "crash")) func demoUnfinishedCrash() {
        let cogs = DeliberateFailure.threeSteps()
        let missing: Int? = nil
        let total = cogs[DeliberateFailure.doubledCog] + missing!
        #expect(total > 0)
    }
}

/// The XCTest demo of a test that traps after three turns (`COG_TRACE_DEMO_UNFINISHED=crash`),
/// in the shape XCTest runs on Linux: a synchronous test that enters the main actor.
nonisolated final class DemoUnfinishedXCTests: XCTestCase {
    func testDemoUnfinishedCrash() throws {
        guard unfinishedDemo == "crash" else { throw XCTSkip("runs only as UnfinishedTestTraceTests' subprocess") }
        MainActor.assumeIsolated {
            let cogs = DeliberateFailure.threeSteps()
            let missing: Int? = nil
            XCTAssertGreaterThan(cogs[DeliberateFailure.doubledCog] + missing!, 0)
        }
    }
}
