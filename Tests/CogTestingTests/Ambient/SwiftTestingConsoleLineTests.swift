import Testing

@testable import CogTesting

/// How a suite recorded by `COG_TRACE` reads Swift Testing's console: the lines below are the
/// runner's own (Swift 6.3 on Linux), with and without colour.
@Suite("Swift Testing's console lines")
struct SwiftTestingConsoleLineTests {
    private let names = ["bad()", "param(x:)", "\"nice \"q\" name\"", "good()", "slow()", "bad2()"]

    private func parse(_ line: String) -> SwiftTestingConsoleLine? {
        SwiftTestingConsoleLine.parse(line, testNames: names)
    }

    @Test func anIssueGivesItsFileLineAndMessage() {
        #expect(
            parse("✘ Test bad() recorded an issue at T.swift:6:21: Expectation failed: (f() → 1) == 2")
                == .issue(test: "bad()", file: "T.swift", line: 6, message: "Expectation failed: (f() → 1) == 2"))
        #expect(
            parse("\u{1B}[91m✘\u{1B}[0m Test bad() recorded an issue at T.swift:10:3: Caught error: E()")
                == .issue(test: "bad()", file: "T.swift", line: 10, message: "Caught error: E()"),
            "colour escapes are not part of the words")
    }

    @Test func aParameterizedIssueSkipsItsArguments() {
        #expect(
            parse(
                "✘ Test param(x:) recorded an issue with 1 argument x → 2 at T.swift:7:48: Expectation failed: x at 2")
                == .issue(test: "param(x:)", file: "T.swift", line: 7, message: "Expectation failed: x at 2"))
    }

    @Test func aDisplayNameIsMatchedWholeEvenWithQuotesInside() {
        #expect(
            parse("✘ Test \"nice \"q\" name\" failed after 0.001 seconds with 1 issue.")
                == .ended(test: "\"nice \"q\" name\"", failed: true))
    }

    @Test func endsPassFailAndCountCases() {
        #expect(parse("✔ Test good() passed after 0.001 seconds.") == .ended(test: "good()", failed: false))
        #expect(
            parse("✘ Test param(x:) with 2 test cases failed after 0.001 seconds with 1 issue.")
                == .ended(test: "param(x:)", failed: true))
        #expect(
            parse("✔ Test param(x:) with 3 test cases passed after 0.004 seconds.")
                == .ended(test: "param(x:)", failed: false))
        #expect(parse("➜ Test good() skipped: \"not today\"") == .ended(test: "good()", failed: false))
    }

    @Test func aLongerNameWinsOverItsPrefix() {
        #expect(parse("✘ Test bad2() failed after 0.1 seconds with 1 issue.") == .ended(test: "bad2()", failed: true))
    }

    @Test func knownIssuesWarningsStartsAndOtherTestsAreNotEvents() {
        #expect(parse("􀄣 Test good() recorded a known issue at T.swift:8:40: Expectation failed: Bool(false)") == nil)
        #expect(parse("⚠︎ Test good() recorded a warning at T.swift:9:34: Issue recorded") == nil)
        #expect(parse("◇ Test bad() started.") == nil)
        #expect(parse("✘ Test other() failed after 0.001 seconds with 1 issue.") == nil, "a test that does not record")
        #expect(parse("✘ Suite S failed after 0.002 seconds with 1 issue.") == nil)
        #expect(parse("") == nil)
    }

    @Test func aTimeLimitIsAnIssueAndDetailsFollowIssues() {
        #expect(
            parse("✘ Test slow() recorded an issue at T.swift:11:3: Time limit was exceeded: 60.000 seconds")
                == .issue(test: "slow()", file: "T.swift", line: 11, message: "Time limit was exceeded: 60.000 seconds")
        )
        #expect(parse("↳ comment here") == .detail("comment here"))
    }
}
