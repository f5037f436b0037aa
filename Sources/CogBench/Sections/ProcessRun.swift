import Foundation

/// One whole run of a program: its time and peak resident memory (from `wait4`).
struct ProcessRun {
    let milliseconds: Double
    let peakKilobytes: Int

    /// What the program printed, when `capturesOutput`.
    let output: String

    /// Whether the program exited with status 0.
    let succeeded: Bool

    init(
        _ program: URL, _ arguments: [String], _ environment: [String: String] = [:], capturesOutput: Bool = false
    ) throws {
        let captured = FileManager.default.temporaryDirectory.appendingPathComponent("cog-bench-run-\(getpid()).out")
        defer { try? FileManager.default.removeItem(at: captured) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if capturesOutput {
            posix_spawn_file_actions_addopen(&actions, 1, captured.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([program.path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for variable in envp { free(variable) } }
        let started = ContinuousClock.now
        var pid: pid_t = 0
        let status = posix_spawn(&pid, program.path, &actions, nil, argv, envp)
        guard status == 0 else { throw BenchFailure("\(program.lastPathComponent) did not start: \(status)") }
        var exit: Int32 = 0
        var usage = rusage()
        while wait4(pid, &exit, 0, &usage) < 0, errno == EINTR {}
        milliseconds = (ContinuousClock.now - started).milliseconds
        peakKilobytes = Int(usage.ru_maxrss)
        // An exit (no signal) with status 0: the low seven bits hold the signal, the next eight the status.
        succeeded = exit & 0x7f == 0 && (exit >> 8) & 0xff == 0
        output = capturesOutput ? (try? String(contentsOf: captured, encoding: .utf8)) ?? "" : ""
    }
}

extension ProcessRun {
    /// The release `coginspect` built beside `cog-bench`, which the sections that time whole
    /// processes run; `section` names the one asking, for the error when it is not there.
    static func inspector(for section: String) throws -> URL {
        let inspector = Bundle.main.bundleURL.appendingPathComponent("coginspect")
        guard FileManager.default.isExecutableFile(atPath: inspector.path) else {
            throw BenchFailure(
                "the \(section) section runs coginspect beside cog-bench; build it first (swift build -c release)")
        }
        return inspector
    }
}
