import CogCommandLine
import CogInspector
import CogTraceFormat
import Foundation

/// `coginspect`: the terminal front end. It opens a trace, then runs commands from the command
/// line, a script or standard input (batch), or reads them at a prompt (interactive).
@main
struct CogInspect {
    static let tool = CommandLineTool(name: "coginspect")
    static let defaultTrace = "Recordings/tour.cogtrace"

    static func main() {
        let options: CommandLineOptions
        do {
            options = try CommandLineOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            tool.fail(error)
        }
        if options.showHelp {
            print(CommandLineOptions.usage)
            return
        }
        if options.showVersion {
            print(tool.versionLine(detail: "trace format \(TraceFormat.version)"))
            return
        }
        let session = openSession(options.tracePath)
        for warning in session.trace.warnings {
            tool.warn("\(warning)")
        }
        let status: ExitStatus
        if let script = options.script {
            status = BatchRunner(session: session, json: options.json, keepGoing: options.keepGoing).run(script)
        } else if isatty(STDIN_FILENO) == 1 {
            status = InteractiveLoop(session: session, json: options.json).run()
        } else {
            status = BatchRunner(session: session, json: options.json, keepGoing: options.keepGoing).run(.standardInput)
        }
        exit(status.rawValue)
    }

    private static func openSession(_ path: String?) -> InspectorSession {
        let tracePath = path ?? defaultTrace
        if path == nil, !FileManager.default.fileExists(atPath: tracePath) {
            fail(
                "no trace given, and '\(defaultTrace)' is not here; run from the package root or name a trace",
                status: .cannotOpenInput)
        }
        var budget = MemoryBudget.standard
        if let text = ProcessInfo.processInfo.environment[MemoryBudget.environmentVariable] {
            guard let megabytes = Int(text), megabytes >= 0 else {
                fail(
                    "\(MemoryBudget.environmentVariable) must be a whole number of MiB, not '\(text)'",
                    status: .usage)
            }
            budget = .megabytes(megabytes)
        }
        do {
            return InspectorSession(
                trace: try TraceFile.load(contentsOf: URL(fileURLWithPath: tracePath), memoryBudget: budget),
                source: tracePath)
        } catch  where error.isUnopenable {
            fail(error.message, status: .cannotOpenInput)
        } catch {
            fail("'\(tracePath)' is not a valid trace: \(error)", status: .malformedInput)
        }
    }

    static func fail(_ message: String, status: ExitStatus) -> Never {
        tool.fail(message, status: status)
    }
}
