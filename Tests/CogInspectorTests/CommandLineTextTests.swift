import Testing

@testable import CogInspector

/// What a command line may carry besides the command: trailing comments, and patterns that
/// ignore case unless they hold a capital.
@Suite("Command-line text")
struct CommandLineTextTests {
    @Test(arguments: [
        ("why counter.doubled   # why", "why counter.doubled   "),
        ("# only a comment", ""),
        ("sql SELECT '#' AS h  # a hash in quotes stays", "sql SELECT '#' AS h  "),
        (#"find "a # b" # the quoted hash stays"#, #"find "a # b" "#),
        ("get weather.x#1", "get weather.x#1"),
        ("info", "info"),
    ])
    func aHashThatStartsAWordOutsideQuotesStartsAComment(_ line: String, _ kept: String) {
        #expect(withoutComment(line) == kept)
    }

    @Test func commentsAreIgnoredWhereverACommandRuns() throws {
        let session = try DiffTests.session("tour")
        let plain = try #require(try session.execute("why weather.isNiceHere"))
        let commented = try #require(try session.execute("why weather.isNiceHere   # why is it nice?"))
        #expect(plain == commented)
        #expect(try session.execute("   # nothing but a comment") == nil)
    }

    @Test func patternsWithoutACapitalIgnoreCase() {
        #expect(matches("weather.isNiceHere", pattern: "nice"))
        #expect(matches("weather.isNiceHere", pattern: "weather.is*here"))
        #expect(!matches("weather.isNiceHere", pattern: "nIce"), "a capital makes the match exact")
        #expect(matches("weather.isNiceHere", pattern: "Nice"))
        #expect(!matches("heat advisory", pattern: "Heat"))
    }
}
