import CReadline
import CogCommandLine
import CogInspector
import Foundation

/// The interactive prompt: GNU readline with line editing, a private history file in the home
/// directory, tab completion of commands, options, state labels, turn numbers and settings,
/// Ctrl-C clearing the line and Ctrl-D leaving.
struct InteractiveLoop {
    let session: InspectorSession
    let json: Bool

    func run() -> ExitStatus {
        let history = HistoryFile()
        history.load()
        Completion.install(for: session)
        Interrupts.install()
        session.interruptRequested = Interrupts.isPending
        let printer = OutputPrinter(session: session, json: json, pagesLongOutput: true)
        let banner =
            "coginspect: \(session.source), \(session.turns.count) turns; 'help' lists the commands, Ctrl-D leaves"
        printer.print(CommandResult(command: "open", report: [.message(banner)]))
        // While the person reads the banner and types, the event index builds on another core.
        session.indexInBackground()
        let runner = CommandRunner(session: session, printer: printer)
        while !session.wantsToQuit {
            Interrupts.setReadingLine(true)
            let input = readline(session.prompt)
            Interrupts.setReadingLine(false)
            guard let raw = input else {
                print()
                break
            }
            let line = String(cString: raw)
            free(raw)
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            history.add(line)
            _ = Interrupts.take()
            do {
                try runner.run(line)
            } catch {
                FileHandle.standardError.write(Data("error: \(TerminalText.escape("\(error)"))\n".utf8))
            }
        }
        history.save()
        return .success
    }
}

/// `~/.coginspect_history`, readable by its owner only.
struct HistoryFile {
    let path: String

    init() {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        path = (home as NSString).appendingPathComponent(".coginspect_history")
    }

    func load() {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        chmod(path, 0o600)
        read_history(path)
    }

    func add(_ line: String) {
        add_history(line)
        append_history(1, path)
        chmod(path, 0o600)
    }

    func save() {
        history_truncate_file(path, 1_000)
    }
}
