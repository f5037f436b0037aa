import CogInspector
import Foundation

/// Runs one command line and prints its result; for `play`, paces the turns itself, printing
/// each as it is reached (cut to the screen, never through the pager) and stopping at Ctrl-C
/// with the cursor on the last turn printed. The engine never sleeps: timing belongs to the
/// front end.
struct CommandRunner {
    let session: InspectorSession
    let printer: OutputPrinter
    /// Whether long answers may come as streams (the prompt's pager reads them as they come).
    let streamsTables: Bool
    private let progress = ProgressLine()

    init(session: InspectorSession, printer: OutputPrinter, streamsTables: Bool = false) {
        self.session = session
        self.printer = printer
        self.streamsTables = streamsTables
    }

    /// What every command is run with: Ctrl-C as its interrupt, the progress line, and
    /// whether another command follows it.
    private func call(isLastCommand: Bool) -> CommandCall {
        let progress = progress
        return CommandCall(
            interruptRequested: Interrupts.isPending, progress: { progress.report($0) },
            streamsTables: streamsTables, isLastCommand: isLastCommand)
    }

    /// Runs `line`; returns the command's "no" (differs, not found), if it gave one.
    /// `isLastCommand` tells the engine no command follows (a batch run's last).
    @discardableResult
    func run(_ line: String, isLastCommand: Bool = false) throws(InspectorError) -> Verdict? {
        let call = call(isLastCommand: isLastCommand)
        let outcome = Result { () throws(InspectorError) in try session.execute(line, call: call) }
        progress.finish()
        guard let result = try outcome.get() else { return nil }
        // Ctrl-C during the command's last steps: its answer is not printed (a big table takes a
        // while to lay out), and the cursor stays where the command left it.
        if Interrupts.isPending() { throw .interrupted }
        if result.clearsScreen {
            // In JSON it is a document like any other answer.
            if printer.printsJSON {
                printer.print(result)
                return nil
            }
            // Home, erase the screen, erase the scrollback: what `clear` does on a terminal.
            if isatty(STDOUT_FILENO) == 1 {
                print("\u{1B}[H\u{1B}[2J\u{1B}[3J", terminator: "")
                fflush(nil)
            }
            return nil
        }
        guard let playback = result.playback else {
            printer.print(result)
            return result.verdict
        }
        try play(playback)
        return nil
    }

    /// Prints each turn as it is reached. Ctrl-C is only looked at, never taken, so a batch run
    /// still sees it afterwards and exits 130; the prompt clears it before the next command.
    /// In JSON the command still prints one document: every turn reached, then, if Ctrl-C
    /// stopped it, where.
    private func play(_ playback: Playback) throws(InspectorError) {
        var reached: [Report] = []
        defer { if printer.printsJSON { printer.print(CommandResult(command: "play", report: reached)) } }
        // Each turn is due `delay` after the one before it was due, so the time a turn takes to
        // print comes out of the pause rather than adding to it.
        let clock = ContinuousClock()
        var due = clock.now
        for (index, turn) in playback.turns.enumerated() {
            let step = try session.playStep(turn, call: call(isLastCommand: false))
            if printer.printsJSON {
                reached += step.report
            } else {
                printer.printWithinScreen(step, more: "turn \(turn)")
            }
            fflush(nil)
            guard index < playback.turns.count - 1 else { break }
            due += playback.delay
            if !pause(until: due, on: clock) {
                let stopped = Report.message("play stopped at turn \(turn); the cursor is there")
                if printer.printsJSON {
                    reached.append(stopped)
                } else {
                    printer.print(CommandResult(command: "play", report: [stopped]))
                }
                return
            }
        }
    }

    /// Waits until `deadline` in short slices; false as soon as Ctrl-C is pressed.
    private func pause(until deadline: ContinuousClock.Instant, on clock: ContinuousClock) -> Bool {
        let slice = Duration.milliseconds(20)
        while clock.now < deadline {
            if Interrupts.isPending() { return false }
            let step = min(slice, deadline - clock.now)
            let microseconds = step.components.seconds * 1_000_000 + step.components.attoseconds / 1_000_000_000_000
            usleep(UInt32(max(0, microseconds)))
        }
        return !Interrupts.isPending()
    }
}
