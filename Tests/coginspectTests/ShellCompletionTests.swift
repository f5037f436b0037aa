import Foundation
import Testing

/// Shell completion: `--complete` answers what a completion script asks, and the bash script,
/// loaded in a real bash under tmux, completes a command name and a state label inside `-c '…'`.
@Suite("Shell completion", .serialized)
struct ShellCompletionTests {
    private let terminal = TerminalSession("completion")

    @Test func commandNamesNeedNoTrace() throws {
        let outcome = try Executables.coginspect(["--complete", "missing.cogtrace", "-c", "exp"])
        #expect(outcome.standardOutput == "expect\nexport\n")
    }

    @Test func stateLabelsComeFromTheTraceOnTheLine() throws {
        let outcome = try Executables.coginspect(["--complete", "Recordings/map.cogtrace", "-c", "why weather.isSunny"])
        #expect(
            outcome.standardOutput
                == "why weather.isSunny[10001]\nwhy weather.isSunny[94105]\nwhy weather.isSunny[98101]\n")
    }

    @Test func optionsOfTheCommandLineAndOfACommand() throws {
        #expect(try Executables.coginspect(["--complete", "--js"]).standardOutput == "--json\n")
        let get = try Executables.coginspect(["--complete", "-c", "get weather.currentZip --d"])
        #expect(get.standardOutput == "get weather.currentZip --description\n")
        let shells = try Executables.coginspect(["--complete", "--completion-script", ""])
        #expect(shells.standardOutput == "bash\nzsh\nfish\n")
    }

    /// A trace that cannot be read completes nothing, silently: a completion never prints an
    /// error into the line being typed.
    @Test func anUnreadableTraceCompletesNothing() throws {
        let outcome = try Executables.coginspect(["--complete", "/nonexistent.cogtrace", "-c", "get wea"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == "\n")
        #expect(outcome.standardError.isEmpty)
    }

    @Test func anUnknownShellIsAUsageError() throws {
        let outcome = try Executables.coginspect(["--completion-script", "tcsh"])
        #expect(outcome.status == 64)
        #expect(outcome.standardError.contains("no completion script for 'tcsh'; expected bash, zsh or fish"))
    }

    @Test(.enabled(if: TerminalSession.isAvailable, "needs tmux"))
    func bashCompletesACommandAndAStateLabel() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(terminal.name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer {
            terminal.stop()
            try? FileManager.default.removeItem(at: home)
        }
        let products = Executables.productsDirectory.path
        terminal.start(
            "env -i HOME='\(home.path)' TERM=xterm PS1='$ ' PATH='\(products):/usr/bin:/bin' bash --norc --noprofile",
            columns: 160, rows: 20)
        terminal.waitFor("the shell's prompt") { TerminalSession.lastLine($0).hasSuffix("$") }
        terminal.send("source <(coginspect --completion-script bash); echo loaded", "Enter")
        terminal.waitFor("the script loaded") { $0.contains("\nloaded") }
        // bash's readline closes the quote after a word it completes alone.
        terminal.send("C-l")
        terminal.send("coginspect Recordings/tour.cogtrace -c 'whe", "Tab")
        terminal.waitFor("the command name completed") { TerminalSession.lastLine($0).hasSuffix("-c 'where'") }
        // A leading space: tmux would read a leading `-c` as its own option.
        terminal.send(" -c 'history weather.currentZ", "Tab")
        let line = terminal.waitFor("the state label completed") {
            TerminalSession.lastLine($0).hasSuffix("-c 'history weather.currentZip'")
        }
        // The completed line runs.
        terminal.send("Enter")
        let ran = terminal.waitFor("the command's answer") { $0.contains("(selectLocation(_:)), origin op") }
        #expect(ran.contains("turn 25 of 1..25"), "\(line)\n\(ran)")
    }
}

/// Labels a trace holds reach completion only when they can be typed: one candidate per
/// label, never a control byte, a line break or a bidi override handed to the shell.
@Suite("Completion of hostile labels")
struct HostileCompletionTests {
    @Test func aLabelThatCannotBeTypedIsLeftOut() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("complete-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var text = try String(
            contentsOf: Executables.packageRoot.appendingPathComponent("Recordings/tour.cogtrace"), encoding: .utf8)
        let hostile = [
            #"weather.esc\u001b]0;title\u0007"#, #"weather.clear\u001b[2J"#, #"weather.rlo\u202eevil"#,
            #"weather.line\nfunc injected() {}"#, #"weather.csi\u009b31m"#, "weather.two words",
        ]
        let labels = ["weather.service", "weather.refreshInterval", "weather.currentZip"]
        for (label, replacement) in zip(labels, hostile.prefix(3)) {
            text = text.replacingOccurrences(of: #""label":"\#(label)""#, with: #""label":"\#(replacement)""#)
        }
        let trace = folder.appendingPathComponent("hostile.cogtrace")
        try text.write(to: trace, atomically: true, encoding: .utf8)
        let outcome = try Executables.coginspect(["--complete", trace.path, "-c", "get weather."])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(!lines.isEmpty)
        for line in lines {
            #expect(
                line.unicodeScalars.allSatisfy {
                    $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) && $0 != "\u{202E}"
                },
                "a candidate carries a control: \(line.debugDescription)")
            #expect(line.hasPrefix("get weather."))
        }
        #expect(!lines.contains { $0.contains("injected") || $0.contains("evil") })
        #expect(Set(lines).count == lines.count, "one candidate per label")
    }
}
