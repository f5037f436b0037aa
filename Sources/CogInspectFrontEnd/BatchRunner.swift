import CogCommandLine
import CogInspector
import Foundation

/// Runs commands without a prompt: from `-c`, a script file or standard input. Stops at the first
/// failing command unless told to keep going; errors go to standard error as `SOURCE:LINE: error:`.
struct BatchRunner {
    let session: InspectorSession
    let json: Bool
    let keepGoing: Bool

    func run(_ script: CommandLineOptions.Script) -> ExitStatus {
        Interrupts.installForBatch()
        Interrupts.installBatchTermination()
        let lines: [(source: String, line: Int, text: String)]
        switch script {
        case .commands(let commands):
            lines = commands.enumerated().map { ("-c", $0.offset + 1, $0.element) }
        case .file(let path):
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                CogInspect.fail("cannot read script '\(path)'", status: .cannotOpenInput)
            }
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                .map { (path, $0.offset + 1, String($0.element)) }
        case .standardInput:
            var read: [(String, Int, String)] = []
            while let line = Swift.readLine() { read.append(("<stdin>", read.count + 1, line)) }
            lines = read
        }
        if Interrupts.isPending() { return interrupted() }
        var status = ExitStatus.success
        // Long answers stream: a batch `history` of millions of turns holds one batch of rows.
        let runner = CommandRunner(
            session: session, printer: OutputPrinter(session: session, json: json), streamsTables: true)
        let lastCommand = lines.lastIndex { InspectorSession.holdsCommand($0.text) }
        for (index, (source, number, text)) in lines.enumerated() {
            // The last command's cold question indexes only the states it names; an earlier one
            // builds the whole index, which the commands after it then read.
            do {
                let verdict = try runner.run(text, isLastCommand: index == lastCommand)
                if Interrupts.isPending() { return interrupted() }
                // A "no" (the recordings differ, nothing found) is an answer, not an error: it
                // prints no error and does not stop the script, but the run exits 1.
                if verdict?.isNo == true, status == .success { status = .failure }
                if session.wantsToQuit { break }
            } catch  where error.kind == .interrupted {
                runner.printer.printFailure(error, of: text)
                return interrupted(documented: true)
            } catch {
                runner.printer.printFailure(error, of: text)
                StandardError.write(runner.printer.errorText("\(error)", lead: "\(source):\(number): error: ") + "\n")
                if status == .success {
                    switch error.kind {
                    case .expectation: status = .expectationFailed
                    case .output: status = .cannotCreateOutput
                    case .traceChanged: status = .cannotOpenInput
                    case .malformedTrace: status = .malformedInput
                    default: status = .failure
                    }
                }
                if !keepGoing { break }
            }
        }
        return status
    }

    /// Ctrl-C (SIGINT) in batch: say where it stopped and exit 130. With `--json`, an interrupt
    /// that no command's document reported gets one of its own.
    private func interrupted(documented: Bool = false) -> ExitStatus {
        let message = "interrupted at turn \(session.cursor)"
        if json, !documented {
            OutputPrinter.writeToStandardOutput(ReportRenderer().json(refusal: message, exitCode: .interrupted) + "\n")
        }
        StandardError.write("coginspect: \(message)\n")
        return .interrupted
    }
}

/// Prints results as the session's settings say: text (styled when color is on, or auto and
/// standard output is a terminal) or JSON; interactively, output taller than the terminal goes
/// through a pager.
struct OutputPrinter {
    let session: InspectorSession
    let json: Bool
    var pagesLongOutput = false

    func print(_ result: CommandResult) {
        // In JSON every command prints its document, an empty one too (`quit`, `set …`).
        guard !result.report.isEmpty || printsJSON else { return }
        let isTerminal = isatty(STDOUT_FILENO) == 1
        if let position = result.report.firstIndex(where: { if case .streamedTable = $0 { true } else { false } }) {
            if pagesLongOutput, isTerminal, !printsJSON { return printStreaming(result, at: position) }
            if !pagesLongOutput { return writeStreaming(result, at: position) }
        }
        let text = render(result)
        if pagesLongOutput, isTerminal, displayRows(of: text) >= terminalRows() - 1, page(text) { return }
        Self.writeToStandardOutput(text + "\n")
    }

    /// Writes `text` to standard output with `write(2)`, after anything `print` buffered, and
    /// ends the run with exit status 74 and one line on standard error when standard output
    /// cannot take it: a full disk or device (`> /dev/full`), or a reader that closed the pipe
    /// (SIGPIPE is ignored, so that is an error here rather than a silent death).
    static func writeToStandardOutput(_ text: String) {
        StandardOutput.write(text, tool: "coginspect")
    }

    /// Prints `result` without ever opening the pager: at the prompt, a text answer taller than
    /// the screen is cut to fit, with a line saying what was left out and `more` (a command
    /// that shows it whole). Paced output (`play`) must never wait for a key.
    func printWithinScreen(_ result: CommandResult, more: String) {
        guard !result.report.isEmpty else { return }
        let text = render(result)
        guard pagesLongOutput, !printsJSON, isatty(STDOUT_FILENO) == 1 else {
            return Self.writeToStandardOutput(text + "\n")
        }
        // The prompt's line and the note's stay visible.
        let available = max(terminalRows() - 2, 2)
        let width = max(terminalColumns() ?? 80, 1)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var rows = 0
        var kept = 0
        for line in lines {
            let height = max(1, (line.unicodeScalars.count + width - 1) / width)
            if rows + height > available - 1 { break }
            rows += height
            kept += 1
        }
        guard kept < lines.count else { return Self.writeToStandardOutput(text + "\n") }
        let left = lines.count - kept
        let note = "… \(left) more line\(left == 1 ? "" : "s"); '\(more)' shows them all"
        Self.writeToStandardOutput(lines.prefix(kept).joined(separator: "\n") + "\n" + note + "\n")
    }

    /// How many terminal rows `text` fills: each line takes as many rows as the terminal's width
    /// wraps it into, so one long line (a JSON or Chrome trace export) pages like a tall output.
    private func displayRows(of text: String) -> Int {
        let width = max(terminalColumns() ?? 80, 1)
        var rows = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            rows += max(1, (line.unicodeScalars.count + width - 1) / width)
            if rows > 10_000 { break }  // taller than any terminal: no need to count further
        }
        return rows
    }

    /// Whether results print as JSON (`--json`, or `set format json`).
    var printsJSON: Bool { json || session.settings.format == .json }

    /// In JSON, a failed command still prints its one document, with the error in it (the
    /// message also goes to standard error, for a person).
    func printFailure(_ error: InspectorError, of line: String) {
        guard printsJSON else { return }
        Self.writeToStandardOutput(
            ReportRenderer().json(error: error, command: session.commandName(of: line)) + "\n")
    }

    /// An error's line for standard error, wrapped at the width the output is laid out for.
    func errorText(_ message: String, lead: String) -> String {
        ReportRenderer(lineWidth: lineWidth).errorText(message, lead: lead)
    }

    /// The result as text or JSON, as the settings say, without printing it.
    func render(_ result: CommandResult) -> String {
        printsJSON ? renderer.json(result) : renderer.text(result)
    }

    /// The renderer the settings ask for.
    var renderer: ReportRenderer {
        let isTerminal = isatty(STDOUT_FILENO) == 1
        let usesColor = session.settings.color == .on || (session.settings.color == .auto && isTerminal)
        return ReportRenderer(valueWidth: session.settings.valueWidth, usesColor: usesColor, lineWidth: lineWidth)
    }

    /// The width output is laid out for: `set columns`, else the terminal's, else `COLUMNS`.
    private var lineWidth: Int? {
        session.settings.columns ?? (isatty(STDOUT_FILENO) == 1 ? terminalColumns() : environmentColumns())
    }

    /// The terminal's width, or nil when it cannot be told.
    private func terminalColumns() -> Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return environmentColumns() }
        return Int(size.ws_col)
    }

    /// `COLUMNS` from the environment when it is a plausible width, so output to a pipe can be
    /// laid out for a width on request; nil otherwise.
    private func environmentColumns() -> Int? {
        guard let text = ProcessInfo.processInfo.environment["COLUMNS"], let columns = Int(text),
            (20...1_000).contains(columns)
        else { return nil }
        return columns
    }

    /// The terminal's height, or 24 when it cannot be told.
    func terminalRows() -> Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return 24 }
        return Int(size.ws_row)
    }

    /// Shows `text` through `less` (quitting at once if it fits, keeping styles); false when no
    /// pager could be started. Quitting the pager early (`q`) ends this output only: the write
    /// that finds the pipe closed fails (SIGPIPE is ignored) and the session goes on.
    private func page(_ text: String) -> Bool {
        guard let pager = popen("less -FRX", "w") else { return false }
        fputs(text + "\n", pager)
        // The shell's "command not found" status: no pager ran, so the text was not shown.
        return pclose(pager) != 127 << 8
    }
}
