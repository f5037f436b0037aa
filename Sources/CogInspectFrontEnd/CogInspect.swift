import CogCommandLine
import CogInspector
import CogInspectorExport
import CogTraceFormat
import CogTraceStore
import Foundation

/// `coginspect`: the terminal front end. It opens a trace, then runs commands from the command
/// line, a script or standard input (batch), or reads them at a prompt (interactive).
public enum CogInspect {
    static let tool = CommandLineTool(name: "coginspect")
    static let defaultTrace = "Recordings/tour.cogtrace"

    /// Runs `coginspect` with the process's arguments and exits with its status.
    public static func main() {
        // Ctrl-C from the start, so one that comes while a big trace loads still ends a batch run
        // with 130 (the prompt installs its own handler); SIGPIPE is ignored from here on, so a
        // reader that leaves (a pager quit early, `| head`) makes a write fail with EPIPE, which
        // the printer reports, rather than end the whole process.
        Interrupts.installForBatch()
        let arguments = Array(CommandLine.arguments.dropFirst())
        // What a completion script asks: candidates a line each, and nothing else, ever.
        if arguments.first == "--complete" {
            let candidates = ShellCompletion.candidates(for: Array(arguments.dropFirst()), defaultTrace: defaultTrace)
            StandardOutput.write(candidates.joined(separator: "\n") + "\n", tool: tool.name)
            return
        }
        let options: CommandLineOptions
        do {
            options = try CommandLineOptions(arguments: arguments)
        } catch {
            fail("\(error); see \(tool.name) --help", status: .usage)
        }
        if options.showHelp {
            StandardOutput.write(CommandLineOptions.usage + "\n", tool: tool.name)
            return
        }
        if let shell = options.completionShell, let script = ShellCompletion.script(for: shell) {
            StandardOutput.write(script, tool: tool.name)
            return
        }
        if options.showVersion {
            StandardOutput.write(
                tool.versionLine(detail: "trace format \(TraceFormat.version)") + "\n", tool: tool.name)
            return
        }
        let paths = options.follows ? options.tracePaths : expandingDirectories(options.tracePaths)
        let session =
            options.follows
            ? FollowRunner.open(paths[0], memoryBudget: memoryBudget(), index: options.usesIndex ? indexUse() : .off)
            : openSession(paths.first, usesIndex: options.usesIndex)
        session.companions =
            options.follows ? [] : paths.dropFirst().map { openSession($0, usesIndex: options.usesIndex) }
        if let until = options.until {
            guard options.script != nil || isatty(STDIN_FILENO) == 0 else {
                fail("--until stops a batch run; give commands with -c or -f; see \(tool.name) --help", status: .usage)
            }
            do {
                if let waiting = try session.followUntil(until) { tool.report("--until: \(waiting)") }
            } catch {
                fail("--until: \(error)", status: .usage)
            }
        }
        for opened in [session] + session.companions {
            for warning in opened.trace.warnings {
                tool.warn(paths.count > 1 ? "\(opened.source): \(warning)" : "\(warning)")
            }
        }
        var status: ExitStatus
        let batch = BatchRunner(session: session, json: options.json, keepGoing: options.keepGoing)
        if options.script == nil, isatty(STDIN_FILENO) == 1 {
            status = InteractiveLoop(session: session, json: options.json).run()
        } else {
            status = batch.run(options.script ?? .standardInput)
            var following = session
            while status == .success, options.follows, !following.wantsToQuit {
                let printer = OutputPrinter(session: following, json: options.json)
                status = FollowRunner(
                    session: following, printer: printer, hasUntil: options.until != nil, reopens: options.reopens
                ).run()
                guard options.reopens, let end = following.followEnd, case .fileChanged = end else { break }
                following.saveFollowedIndex(note: sayIndexNote)
                following = FollowRunner.reopen(
                    paths[0], after: following, memoryBudget: memoryBudget(),
                    index: options.usesIndex ? indexUse() : .off)
                if let until = options.until { _ = try? following.followUntil(until) }
                status = BatchRunner(session: following, json: options.json, keepGoing: options.keepGoing).run(
                    options.script ?? .commands([]))
            }
        }
        // A followed trace's index covers what was read, for the next open to start from.
        session.saveFollowedIndex(note: sayIndexNote)
        exit(status.rawValue)
    }

    /// Says on standard error what happened to a sidecar index (written, rebuilt), escaped.
    static func sayIndexNote(_ note: String) {
        StandardError.write(TerminalText.escape(note) + "\n")
    }

    /// `paths` with each directory replaced by the `.cogtrace` files in it, in name order.
    private static func expandingDirectories(_ paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                return [path]
            }
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
                .filter { $0.hasSuffix(".cogtrace") }.sorted()
            guard !names.isEmpty else { fail("'\(path)' holds no .cogtrace file", status: .cannotOpenInput) }
            return names.map { (path as NSString).appendingPathComponent($0) }
        }
    }

    private static func openSession(_ path: String?, usesIndex: Bool) -> InspectorSession {
        let tracePath = path ?? defaultTrace
        if path == nil, !FileManager.default.fileExists(atPath: tracePath) {
            fail(
                "no trace given, and '\(defaultTrace)' is not here; run from the package root or name a trace",
                status: .cannotOpenInput)
        }
        let budget = memoryBudget()
        // A big trace takes a while to read: the progress line shows it, as it does a long
        // command, and is erased before the session starts or an error is printed.
        let progress = ProgressLine()
        var notes: [String] = []
        let loaded = Result { () throws(TraceReadError) in
            try TraceFile.load(
                contentsOf: URL(fileURLWithPath: tracePath), memoryBudget: budget, progress: { progress.report($0) },
                index: usesIndex ? indexUse() : .off, note: { notes.append($0) })
        }
        progress.finish()
        // What the index did is said once, on standard error, after the progress line is gone.
        for note in notes { sayIndexNote(note) }
        do {
            return InspectorSession(trace: try loaded.get(), source: tracePath, catalog: .standard)
        } catch  where error.isUnopenable {
            fail(error.message, status: .cannotOpenInput)
        } catch {
            fail("'\(tracePath)' is not a valid trace: \(error)", status: .malformedInput)
        }
    }

    /// Which traces get a sidecar index: those of `COGINSPECT_INDEX_MIN_MB` megabytes or more
    /// when it is set (0: every trace), else those of 32 MB or more.
    private static func indexUse() -> TraceIndexUse {
        guard let text = ProcessInfo.processInfo.environment["COGINSPECT_INDEX_MIN_MB"] else { return .automatic }
        guard let megabytes = Int(text), megabytes >= 0, megabytes <= 1 << 30 else {
            fail(
                "COGINSPECT_INDEX_MIN_MB must be a whole number of megabytes (0 indexes every trace), not '\(text)'",
                status: .usage)
        }
        return .atLeast(megabytes << 20)
    }

    /// The memory budget for decoded keyframes: `COGINSPECT_MEMORY_MB` when set.
    private static func memoryBudget() -> MemoryBudget {
        guard let text = ProcessInfo.processInfo.environment[MemoryBudget.environmentVariable] else {
            return .standard
        }
        guard let megabytes = Int(text), megabytes >= 0 else {
            fail("\(MemoryBudget.environmentVariable) must be a whole number of MiB, not '\(text)'", status: .usage)
        }
        return .megabytes(megabytes)
    }

    /// Whether the command line asks for JSON, read from the arguments themselves so that a run
    /// refused before its options parse (a usage error) still prints its JSON document.
    static let asksForJSON = CommandLine.arguments.dropFirst().prefix { $0 != "--" }.contains("--json")

    /// Ends a run in which no command ran (or none can run on): `message` on standard error and,
    /// with `--json`, one document carrying it on standard output.
    static func fail(_ message: String, status: ExitStatus) -> Never {
        if asksForJSON {
            OutputPrinter.writeToStandardOutput(ReportRenderer().json(refusal: message, exitCode: status) + "\n")
        }
        tool.fail(message, status: status)
    }
}
