import Foundation
import Testing

/// A program in a tmux pane on a tmux server of its own: a pseudo-terminal a test types into
/// and reads the screen of, as a person at a terminal would.
struct TerminalSession {
    /// The tmux socket and session name, unique to this test process and purpose.
    let name: String

    init(_ purpose: String) {
        name = "coginspect-\(purpose)-\(getpid())"
    }

    /// Whether tmux is installed where `tmux(_:)` looks for it: tests that need a terminal skip,
    /// saying so, rather than time out waiting for a screen that never comes.
    static var isAvailable: Bool {
        ["/usr/local/bin/tmux", "/usr/bin/tmux", "/bin/tmux"].contains {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Runs tmux with a clean environment: the test runner's own (a library path into the
    /// toolchain, for one) must not reach the program under test. A command that may start the
    /// tmux server gets /dev/null for its output, so the server keeps no pipe of ours open.
    @discardableResult
    func tmux(_ arguments: [String]) -> String {
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(
            separator: " ")
        let captures = arguments.first == "capture-pane"
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).screen")
        let command =
            "env -i PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 tmux -L \(name) \(quoted)"
            + (captures ? " >'\(output.path)'" : " >/dev/null") + " 2>/dev/null </dev/null"
        // system(3) waits with waitpid and needs no run loop, so it works from a MainActor test.
        _ = system(command)
        guard captures else { return "" }
        defer { try? FileManager.default.removeItem(at: output) }
        return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    }

    /// Starts `command` (a shell command line) in a pane of `columns` × `rows`, in the package root.
    func start(_ command: String, columns: Int = 160, rows: Int = 50) {
        tmux([
            "new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)", "-c", Executables.packageRoot.path,
            command,
        ])
    }

    /// Starts the built `coginspect` on `trace` with a fresh home directory of its own (for the
    /// history file), and returns that directory for `stop(removing:)`.
    func startInspector(_ trace: String, columns: Int = 160, rows: Int = 50) throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let binary = Executables.productsDirectory.appendingPathComponent("coginspect").path
        start("env HOME='\(home.path)' TERM=xterm '\(binary)' '\(trace)'", columns: columns, rows: rows)
        return home
    }

    /// Ends the session and removes the home directory `startInspector` made.
    func stop(removing home: URL) {
        stop()
        try? FileManager.default.removeItem(at: home)
    }

    /// Ends the session (and with it the server, which has no other).
    func stop() {
        tmux(["kill-session", "-t", name])
    }

    /// Types `keys` (tmux key names such as `Enter` and `C-c`, or text).
    func send(_ keys: String...) {
        tmux(["send-keys", "-t", name] + keys)
    }

    /// What the pane shows now.
    func screen() -> String {
        tmux(["capture-pane", "-p", "-t", name])
    }

    /// The screen with lines the terminal wrapped joined again, so a line the program printed
    /// wider than the pane shows as one long line.
    func joinedScreen() -> String {
        tmux(["capture-pane", "-p", "-J", "-t", name])
    }

    /// Everything the pane printed, its scrollback and then the screen, so output taller than
    /// the screen can be read whole.
    func scrollback() -> String {
        tmux(["capture-pane", "-p", "-S", "-", "-t", name])
    }

    /// Whether the session's program is still running.
    var isRunning: Bool {
        system("env -i PATH=/usr/local/bin:/usr/bin:/bin tmux -L \(name) has-session -t \(name) >/dev/null 2>&1") == 0
    }

    /// Waits (at most `seconds`) until the screen satisfies `condition`; records an issue naming
    /// `what` when it never does.
    @discardableResult
    func waitFor(_ what: String, seconds: Int = 10, _ condition: (String) -> Bool) -> String {
        for _ in 0..<(seconds * 20) {
            let text = screen()
            if condition(text) { return text }
            usleep(50_000)
        }
        let text = screen()
        Issue.record("timed out waiting for \(what); the screen shows:\n\(text)")
        return text
    }

    /// The last line of a screen (the prompt, while one is shown).
    static func lastLine(_ text: String) -> String {
        text.split(separator: "\n").last.map(String.init) ?? ""
    }
}
