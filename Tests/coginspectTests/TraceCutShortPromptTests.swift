import Foundation
import Testing

/// A trace cut shorter on disk under an open prompt (a test run again rewrites its trace in
/// place): the next command that reads it says the file changed and how to read it again, and
/// the session stays. The trace is mapped, so before the guard this was a `Bus error`.
@Suite(
    "a trace cut short under the prompt", .serialized,
    .enabled(if: TerminalSession.isAvailable, "needs tmux"))
struct TraceCutShortPromptTests {
    private let terminal = TerminalSession("cutshort")

    @Test func theNextCommandSaysTheFileChangedAndThePromptStays() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cutshort-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            terminal.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        let trace = folder.appendingPathComponent("big.cogtrace")
        try SyntheticTraces.write(turns: 100_000, to: trace)
        let binary = Executables.productsDirectory.appendingPathComponent("coginspect").path
        terminal.start(
            "env HOME='\(folder.path)' TERM=xterm '\(binary)' '\(trace.path)'; echo \"exited $?\"; sleep 60",
            columns: 200)
        terminal.waitFor("the prompt", seconds: 30) { TerminalSession.lastLine($0).hasSuffix("turn 100000/100000>") }
        terminal.send("goto 50000", "Enter")
        terminal.waitFor("turn 50000") { TerminalSession.lastLine($0).hasSuffix("turn 50000/100000>") }
        // What re-running a test that rewrites its trace does to the open file.
        #expect(truncate(trace.path, 4096) == 0)
        terminal.send("goto 90000", "Enter")
        let refused = terminal.waitFor("the refusal") { $0.contains("was cut shorter on disk") }
        #expect(refused.contains("run 'coginspect"), "says how to read it again:\n\(refused)")
        terminal.waitFor("the prompt, where it was") {
            TerminalSession.lastLine($0).hasSuffix("turn 50000/100000>")
        }
        terminal.send("history weather.currentZip", "Enter")
        terminal.waitFor("a second refusal") { $0.components(separatedBy: "was cut shorter on disk").count == 3 }
        terminal.send("help goto", "Enter")
        terminal.waitFor("help, which reads no trace") {
            $0.contains("synopsis:    goto N") && TerminalSession.lastLine($0).hasSuffix("turn 50000/100000>")
        }
        terminal.send("C-d")
        let end = terminal.waitFor("the end") { $0.contains("exited ") }
        #expect(end.contains("exited 0") && !end.contains("Bus error"), "\(end)")
    }
}
