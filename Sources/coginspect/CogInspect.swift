import CogInspector
import CogTrace
import Foundation

/// `coginspect`: the terminal front end. It opens a trace, then runs commands from the command
/// line, a script or standard input (batch), or reads them at a prompt (interactive).
@main
struct CogInspect {
    /// The documented exit statuses.
    enum ExitStatus: Int32 {
        case ok = 0, commandFailed = 1, expectFailed = 3, usage = 64, malformedTrace = 65, cannotOpen = 66
    }

    static let defaultTrace = "Recordings/tour.cogtrace"

    static func main() {
        let options: CommandLineOptions
        do {
            options = try CommandLineOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            fail("\(error)", status: .usage)
        }
        if options.showHelp {
            print(CommandLineOptions.usage)
            return
        }
        if options.showVersion {
            print("coginspect (trace format \(TraceFormat.version))")
            return
        }
        let session = openSession(options.tracePath)
        for warning in session.trace.warnings {
            FileHandle.standardError.write(Data("coginspect: warning: \(warning)\n".utf8))
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
        guard FileManager.default.isReadableFile(atPath: tracePath) else {
            if path == nil {
                fail("no trace given, and '\(defaultTrace)' is not here; run from the package root or name a trace",
                     status: .cannotOpen)
            }
            fail("cannot open '\(tracePath)': no such readable file", status: .cannotOpen)
        }
        do {
            return InspectorSession(trace: try TraceFile.load(contentsOf: URL(fileURLWithPath: tracePath)), source: tracePath)
        } catch {
            fail("'\(tracePath)' is not a valid trace: \(error)", status: .malformedTrace)
        }
    }

    static func fail(_ message: String, status: ExitStatus) -> Never {
        FileHandle.standardError.write(Data("coginspect: \(message)\n".utf8))
        exit(status.rawValue)
    }
}
