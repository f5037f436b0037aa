import CReadline
import CogCommandLine
import CogInspector
import CogTraceFormat
import CogTraceStore
import Foundation

/// The interactive prompt: GNU readline with line editing, a private history file in the home
/// directory, tab completion of commands, options, state labels, turn numbers and settings,
/// Ctrl-C clearing the line and Ctrl-D leaving.
///
/// Readline's callback interface reads a key at a time when standard input has one, so while a
/// followed trace grows the loop also looks at the file between keys: watch lines and notices
/// are printed above the line being typed, which is drawn again as it was.
struct InteractiveLoop {
    let session: InspectorSession
    let json: Bool
    /// How often a followed file is looked at.
    static let followInterval: Int32 = 50
    /// The shortest time between two notices of turns that arrived while the cursor was elsewhere.
    static let noticeInterval: Duration = .seconds(2)

    func run() -> ExitStatus {
        let history = HistoryFile()
        history.load()
        Completion.install(for: session)
        Interrupts.install()
        let printer = OutputPrinter(session: session, json: json, pagesLongOutput: true)
        let following = session.isFollowing ? "following, " : ""
        let banner =
            "coginspect: \(session.source), \(following)\(session.turns.count) turns; 'help' lists the commands, "
            + "Ctrl-D leaves"
        printer.print(CommandResult(command: "open", report: [.message(banner)] + Self.failureNote(session)))
        // While the person reads the banner and types, the event index builds on another core.
        session.indexInBackground()
        // A long answer's first screen shows while the rest is found (the pager reads as it comes).
        let runner = CommandRunner(session: session, printer: printer, streamsTables: true)
        var lastNotice = ContinuousClock.now - Self.noticeInterval
        var reportedEnd = false
        while !session.wantsToQuit {
            Interrupts.setReadingLine(true)
            cog_rl_install_line_handler(session.prompt)
            var finished: UnsafeMutablePointer<CChar>?
            while cog_rl_take_finished_line(&finished) == 0 {
                var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                let ready = poll(&input, 1, session.isFollowing ? Self.followInterval : -1)
                if ready > 0 {
                    rl_callback_read_char()
                    continue
                }
                guard ready == 0 else { continue }  // a signal (Ctrl-C is handled by its handler)
                showArrivals(printer: printer, lastNotice: &lastNotice, reportedEnd: &reportedEnd)
            }
            Interrupts.setReadingLine(false)
            guard let raw = finished else {
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
                runner.printer.printFailure(error, of: line)
                StandardError.write(runner.printer.errorText("\(error)", lead: "error: ") + "\n")
            }
        }
        rl_callback_handler_remove()
        history.save()
        return .success
    }

    /// For a failing test's trace, a line saying so and where the cursor opened: at the last
    /// turn before the first failure.
    static func failureNote(_ session: InspectorSession) -> [Report] {
        let failures = session.trace.failures
        guard let first = failures.first else { return [] }
        let said = first.message.split(separator: "\n").first.map(String.init) ?? ""
        let message = said.count > 120 ? String(said.prefix(119)) + "…" : said
        let place = first.location.map { " (\($0))" } ?? ""
        let cursor =
            first.after == session.cursor
            ? "the cursor is at turn \(first.after), the last before it"
            : "it came after turn \(first.after)"
        let more = failures.count > 1 ? "; 'failures' lists all \(failures.count)" : "; 'failures' shows it"
        return [.message("'\(first.test)' failed: \(message)\(place); \(cursor)\(more)")]
    }

    /// Looks at the followed file and shows what arrived above the line being typed: watch
    /// changes at once, turns that arrived while the cursor was elsewhere in one line now and
    /// then, the end of following once; a new newest turn only changes the prompt.
    private func showArrivals(
        printer: OutputPrinter, lastNotice: inout ContinuousClock.Instant, reportedEnd: inout Bool
    ) {
        let promptBefore = session.prompt
        let update = session.pollFollowed()
        var report = update?.report ?? []
        if ContinuousClock.now - lastNotice >= Self.noticeInterval, let notice = session.takeArrivalNotice() {
            report.append(notice)
            lastNotice = .now
        }
        if !reportedEnd, update?.ended == nil, let notice = session.followEndNotice { report.append(notice) }
        reportedEnd = reportedEnd || session.followEnd != nil
        if !report.isEmpty {
            let text = printer.render(CommandResult(command: "watch", report: report))
            cog_rl_print_above(text + "\n", session.prompt)
        } else if session.prompt != promptBefore {
            cog_rl_change_prompt(session.prompt)
        }
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
