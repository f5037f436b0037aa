import Foundation
import Testing

@Suite("Exit statuses and errors")
struct ExitStatusTests {
    @Test func aGoodSessionExitsZero() throws {
        #expect(try Executables.coginspect(["-c", "info"]).status == 0)
    }

    @Test func aFailingCommandExitsOneAndStopsWithSourceAndLine() throws {
        let outcome = try Executables.coginspect(["-c", "where", "-c", "get weather.isNise[10001]", "-c", "info"])
        #expect(outcome.status == 1)
        #expect(
            outcome.standardError
                == "-c:2: error: unknown state 'weather.isNise[10001]'; did you mean 'weather.isNice[10001]'?\n")
        #expect(!outcome.standardOutput.contains("producer:"), "batch stops at the first failure")
    }

    @Test func keepGoingRunsTheRestButStillFails() throws {
        let outcome = try Executables.coginspect(["--keep-going", "-c", "bogus", "-c", "where"])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.hasPrefix("turn 25 of 1..25"))
        #expect(outcome.standardError.contains("-c:1: error: unknown command 'bogus'"))
    }

    @Test func aScriptFromStandardInputNamesItsLines() throws {
        let outcome = try Executables.coginspect(["Recordings/tour.cogtrace", "-f", "-"], input: "where\n\ngoto 999\n")
        #expect(outcome.status == 1)
        #expect(outcome.standardError == "<stdin>:3: error: no turn 999 in this trace; it has turns 1..25\n")
    }

    @Test func aFalseExpectationExitsThreeAndATrueOneZero() throws {
        let failing = try Executables.coginspect([
            "Recordings/tour.cogtrace", "-c", "goto 6",
            "-c", "expect 'weather.isNice[10001] == false'",
        ])
        #expect(failing.status == 3)
        #expect(
            failing.standardError
                == "-c:2: error: expectation failed at turn 6: 'weather.isNice[10001] == false' (weather.isNice[10001] = true)\n"
        )
        let holding = try Executables.coginspect([
            "Recordings/tour.cogtrace", "-c", "expect weather.isNice[10001] == false",
        ])
        #expect(holding.status == 0, "\(holding.standardError)")
    }

    @Test func aUsageMistakeExitsSixtyFour() throws {
        let outcome = try Executables.coginspect(["--frobnicate"])
        #expect(outcome.status == 64)
        #expect(outcome.standardError == "coginspect: unknown option '--frobnicate'; see coginspect --help\n")
    }

    @Test func aMalformedTraceExitsSixtyFive() throws {
        let directory = FileManager.default.temporaryDirectory
        let bad = directory.appendingPathComponent("coginspect-malformed-\(getpid()).cogtrace")
        try Data(#"{"type":"state","id":1}"#.utf8).write(to: bad)
        defer { try? FileManager.default.removeItem(at: bad) }
        let outcome = try Executables.coginspect([bad.path, "-c", "info"])
        #expect(outcome.status == 65)
        #expect(outcome.standardError.contains("line 1, column 1: expected a header record first"))
    }

    @Test func aMissingTraceExitsSixtySix() throws {
        let outcome = try Executables.coginspect(["no-such.cogtrace", "-c", "info"])
        #expect(outcome.status == 66)
        #expect(outcome.standardError == "coginspect: cannot open 'no-such.cogtrace': no such readable file\n")
    }

    @Test func valuesWithEscapeSequencesPrintEscaped() throws {
        let directory = FileManager.default.temporaryDirectory
        let hostile = directory.appendingPathComponent("coginspect-hostile-\(getpid()).cogtrace")
        let value = #"{"t":"\u001b]0;pwned\u0007\u001b[2J"}"#
        try Data(
            """
            {"type":"header","format":"cogtrace","version":"1.0","minReader":"1.0","title":"hostile"}
            {"type":"state","id":1,"label":"evil\\u001b[31m","decl":"evil","shape":"manual"}
            {"type":"keyframe","before":1,"states":[],"registrations":[]}
            {"type":"turn","seq":1,"name":"x\\u001b[H","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"created","s":1,"v":\(value)}]}
            {"type":"trailer","ok":true,"turns":1,"evicted":0,"dropped":0,"keyframes":1}

            """.utf8
        ).write(to: hostile)
        defer { try? FileManager.default.removeItem(at: hostile) }
        let outcome = try Executables.coginspect([hostile.path, "-c", "turns", "-c", "state", "-c", "turn 1"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(!outcome.standardOutput.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(outcome.standardOutput.contains(#"\u{1B}]0;pwned\u{7}"#))
    }
}
