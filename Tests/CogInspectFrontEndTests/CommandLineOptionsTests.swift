import CogCommandLine
import Testing

@testable import CogInspectFrontEnd

/// `coginspect`'s command line, parsed without starting a process: what each option sets, the
/// script it implies, and the usage errors, word for word.
@Suite("coginspect's options")
struct CommandLineOptionsTests {
    private func parse(_ words: String...) throws(UsageError) -> CommandLineOptions {
        try CommandLineOptions(arguments: words)
    }

    private func refusal(_ words: String...) -> String? {
        do {
            _ = try CommandLineOptions(arguments: words)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func commandsAreKeptInOrderAndMakeABatchScript() throws {
        let options = try parse("a.cogtrace", "-c", "info", "--command", "turns 1..3", "--json", "--keep-going")
        #expect(options.tracePaths == ["a.cogtrace"])
        #expect(options.commands == ["info", "turns 1..3"])
        #expect(options.json && options.keepGoing)
        guard case .commands(let script)? = options.script else {
            Issue.record("-c makes a script of commands")
            return
        }
        #expect(script == ["info", "turns 1..3"])
    }

    @Test func aScriptFileOrStandardInput() throws {
        guard case .file("checks.txt")? = try parse("-f", "checks.txt").script else {
            Issue.record("-f FILE reads the file")
            return
        }
        guard case .standardInput? = try parse("t.cogtrace", "-f", "-").script else {
            Issue.record("-f - reads standard input")
            return
        }
        #expect(try parse("t.cogtrace").script == nil, "no -c or -f: no script (the prompt, on a terminal)")
    }

    @Test func followingTakesOneTraceAndItsOwnOptions() throws {
        let options = try parse("--follow", "live.cogtrace", "--until", "weather.isNiceHere", "--reopen")
        #expect(options.follows && options.reopens)
        #expect(options.until == "weather.isNiceHere")
        #expect(
            refusal("--follow", "a.cogtrace", "b.cogtrace")
                == "--follow needs exactly one trace file, e.g. --follow weather.cogtrace")
        #expect(refusal("a.cogtrace", "--until", "x") == "--until works with --follow only")
        #expect(refusal("a.cogtrace", "--reopen") == "--reopen works with --follow only")
        #expect(
            refusal("--follow", "a.cogtrace", "--reopen", "-f", "-")
                == "--reopen runs the commands again on each new recording; give them with -c or -f, not -f -")
    }

    @Test func usageErrorsSayWhatWouldBeAccepted() {
        #expect(refusal("-c") == "-c needs a command, e.g. -c info")
        #expect(refusal("-f") == "-f needs a script path, or - for standard input")
        #expect(refusal("-f", "a", "-f", "b") == "-f can be given once")
        #expect(refusal("-c", "info", "-f", "s.txt") == "use -c or -f, not both")
        #expect(refusal("--until") == "--until needs an expression, e.g. --until 'weather.isNiceHere == true'")
        #expect(refusal("--bogus") == "unknown option '--bogus'")
    }

    @Test func helpAndVersionAreFlags() throws {
        #expect(try parse("--help").showHelp)
        #expect(try parse("-h").showHelp)
        #expect(try parse("--version").showVersion)
        #expect(CommandLineOptions.usage.contains("--reopen"))
    }
}
