import CogInspectorExport
import CogTraceFormat
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

    @Test(arguments: [
        (#"find 'heat advisory'"#, ["find", "heat advisory"]),
        (#"find "heat advisory""#, ["find", "heat advisory"]),
        (#"find heat\ advisory"#, ["find", "heat advisory"]),
        (#"turns --name 'forecast[94105] success'"#, ["turns", "--name", "forecast[94105] success"]),
        (#"expect weather.name == "it's""#, ["expect", "weather.name", "==", "it's"]),
        (#"say 'a "b" c'"#, ["say", #"a "b" c"#]),
        (#"say "a \"b\" c""#, ["say", #"a "b" c"#]),
        ("say ''", ["say", ""]),
    ])
    func oneTokenizerQuotesLikeAShell(_ line: String, _ words: [String]) throws {
        #expect(try tokenize(line) == words)
    }

    @Test func everyCommandTakesTheSameQuoting() throws {
        let session = try DiffTests.session("tour", catalog: .standard)
        var checked = 0
        for (quoted, plain) in [
            ("turns --name 'forecast[94105] success'", "turns --name \"forecast[94105] success\""),
            ("find 'heat advisory'", "find heat\\ advisory"),
            ("bisect 'weather.isNice[10001] == true'", "bisect weather.isNice[10001] == true"),
            ("expect 'weather.currentZip == \"98101\"'", "expect weather.currentZip == \"98101\""),
            ("sql 'SELECT count(*) FROM turns'", "sql SELECT count(*) FROM turns"),
        ] {
            try session.move(to: 25)
            let first = try session.execute(quoted)
            try session.move(to: 25)
            let second = try session.execute(plain)
            #expect(first == second, "\(quoted)")
            #expect(first?.report.isEmpty == false)
            checked += 1
        }
        #expect(checked == 5)
        let found = try #require(try session.execute("find 'heat advisory'"))
        #expect(ReportRenderer().text(found).contains("clear 94°F heat advisory"))
        #expect(throws: InspectorError("unterminated ' quote in 'find 'heat'")) { try session.execute("find 'heat") }
    }

    @Test func patternsWithoutACapitalIgnoreCase() {
        #expect(TextMatcher("nice").matches("weather.isNiceHere"))
        #expect(TextMatcher("weather.is*here").matches("weather.isNiceHere"))
        #expect(!TextMatcher("nIce").matches("weather.isNiceHere"), "a capital makes the match exact")
        #expect(TextMatcher("Nice").matches("weather.isNiceHere"))
        #expect(!TextMatcher("Heat").matches("heat advisory"))
    }

    /// The byte search that serves ASCII texts agrees with comparing characters, and texts that
    /// are not ASCII are still matched by character.
    @Test func aMatcherReadOnceAgreesWithCharacters() {
        let matcher = TextMatcher("item[1")
        #expect(matcher.matches("catalog.item[1999]"))
        #expect(matcher.matches("CATALOG.ITEM[1]"), "no capital in the pattern: case is ignored")
        #expect(!matcher.matches("catalog.item[2]"))
        #expect(!matcher.matches("item["), "a text shorter than the pattern")
        #expect(TextMatcher("").matches("anything"))
        #expect(TextMatcher("Zürich").matches("weather.city = Zürich"))
        #expect(!TextMatcher("Zürich").matches("weather.city = zürich"))
        #expect(TextMatcher("zürich").matches("weather.city = ZÜRICH"), "case folds beyond ASCII")
        #expect(!TextMatcher("e").matches("cafe\u{301}"), "a letter with a combining accent is another character")
        let texts = ["weather.isNiceHere", "Weather.IsNice", "x.y[a*b]", "naïve", "ab", ""]
        for pattern in ["nice", "Nice", "is*here", "a*b", "ï", "*", "b"] {
            let matcher = TextMatcher(pattern)
            for text in texts {
                let ignoresCase = !pattern.contains { $0.isUppercase }
                let subject = ignoresCase ? text.lowercased() : text
                let expected =
                    pattern.contains("*") ? LabelPattern(pattern).matches(subject) : subject.contains(pattern)
                #expect(matcher.matches(text) == expected, "'\(pattern)' against '\(text)'")
            }
        }
    }
}
