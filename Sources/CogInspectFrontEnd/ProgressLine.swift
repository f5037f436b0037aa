import CogCommandLine
import CogInspector
import CogTraceFormat
import CogTraceStore
import Foundation

/// The line on standard error that says how long work is getting on ("indexing events 42%"):
/// shown only on a terminal, only once a task has run for half a second, and erased when the
/// command ends, so quick commands and piped output never see it.
final class ProgressLine {
    /// How long a task runs before its line appears.
    static let delay: Duration = .milliseconds(500)

    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let clock = ContinuousClock()
    private var task: String?
    private var started = ContinuousClock.now
    private var isShown = false

    /// Notes how far `progress`'s task has got, drawing the line once it is due.
    func report(_ progress: TraceProgress) {
        guard isTerminal else { return }
        if progress.task != task {
            task = progress.task
            started = clock.now
        }
        guard clock.now - started >= Self.delay else { return }
        let amount = progress.total > 0 ? " \(Int(progress.fraction * 100))%" : "…"
        // Carriage return and erase-line, so each report redraws the same line.
        write("\r\u{1B}[K\(progress.task)\(amount)")
        isShown = true
    }

    /// Erases the line if one is shown; called when a command ends.
    func finish() {
        task = nil
        guard isShown else { return }
        write("\r\u{1B}[K")
        isShown = false
    }

    private func write(_ text: String) {
        StandardError.write(text)
    }
}
