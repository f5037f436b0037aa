import Foundation

/// One `coginspect` at its prompt on a pseudo-terminal of a set size, as a person would use it:
/// the bench types a command and times how long its first screen takes to show (the pager's
/// first rows), then quits the pager and the prompt.
struct PromptRun {
    private let master: Int32
    private let pid: pid_t
    private var screen = ""
    /// glibc's `POSIX_SPAWN_SETSID` (since 2.26), which its headers show only to `_GNU_SOURCE`.
    private static let spawnSetsid: Int16 = 0x80

    /// Starts `program` with `arguments` in a session of its own whose controlling terminal is
    /// a new pseudo-terminal of `rows` × `columns`, and waits for its prompt.
    init(
        _ program: URL, _ arguments: [String], environment: [String: String], rows: UInt16 = 40,
        columns: UInt16 = 120
    ) throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else {
            throw BenchFailure("no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let slavePath = String(cString: ttyname(slave))
        close(slave)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The new session's first terminal opened becomes its controlling one, so `less` finds it.
        posix_spawn_file_actions_addclose(&actions, master)
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Self.spawnSetsid)
        let argv = ([program.path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let variables = ProcessInfo.processInfo.environment.merging(environment.merging(["TERM": "xterm"]) { $1 }) {
            $1
        }
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for variable in envp { free(variable) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, program.path, &actions, &attributes, argv, envp)
        guard status == 0 else {
            close(master)
            throw BenchFailure("\(program.lastPathComponent) did not start on a terminal: \(status)")
        }
        self.master = master
        self.pid = pid
        try waitFor("the prompt", seconds: 120) { $0.hasSuffix("> ") }
    }

    /// Types `command` and Enter, and returns the milliseconds until the output holds `marker`
    /// (a row of the answer, which the typed line does not hold).
    mutating func timeFirstScreen(of command: String, marker: String) throws -> Double {
        screen = ""
        let started = ContinuousClock.now
        type(command + "\r")
        try waitFor("the first screen of '\(command)'", seconds: 600) { $0.contains(marker) }
        return (ContinuousClock.now - started).milliseconds
    }

    /// Quits the pager, then the prompt, and waits for the process to end.
    mutating func finish() throws {
        screen = ""
        type("q")
        try waitFor("the prompt after the pager", seconds: 120) { $0.hasSuffix("> ") }
        type("\u{4}")
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        close(master)
    }

    private func type(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
    }

    /// Reads the terminal until `done` holds for what came since the last mark.
    private mutating func waitFor(_ what: String, seconds: Double, _ done: (String) -> Bool) throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !done(screen) {
            guard ContinuousClock.now < deadline else {
                kill(pid, SIGKILL)
                throw BenchFailure("coginspect did not show \(what) within \(Int(seconds)) s")
            }
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let count = read(master, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw BenchFailure("coginspect's terminal closed before \(what)") }
            screen += String(decoding: buffer[..<count], as: UTF8.self)
        }
    }
}
