import Cog
import CogCommandLine
import CogTrace
import Dispatch
import Foundation
import Weather

/// `weather run`: the app on the real clock with the live (demo) service and its latency, the
/// dashboard redrawn after every change, and an optional trace streamed as it runs.
final class LiveSession {
    private let interval: Duration
    private let tracePath: String?
    /// ZIPs to look at in turn, one per interval (none: stay on New York).
    private let visits: [ZipCode]

    init(interval: Duration, tracePath: String?, visits: [ZipCode] = []) {
        self.interval = interval
        self.tracePath = tracePath
        self.visits = visits
    }

    func run() async throws {
        let cogs = Cogs.assemble()
        var recorder: CogRecorder?
        if let tracePath {
            let streaming = CogRecorder(configuration: RecorderConfiguration(title: "weather run"))
            streaming.attach(to: cogs)
            do {
                try streaming.startStreaming(to: URL(fileURLWithPath: tracePath))
            } catch {
                throw WeatherCommandError("\(error)", status: .cannotCreateOutput)
            }
            recorder = streaming
        }
        let weather = WeatherMechanism(
            notifier: WeatherNotifier { message in Self.show("🔔 \(message)") }, interval: interval)
        cogs.start(visits.isEmpty ? [weather] : [weather, VisitMechanism(zips: visits, interval: interval)])
        var dashboard: WeatherDashboard?
        dashboard = WeatherDashboard(cogs: cogs) {
            Task { @MainActor in
                dashboard?.renderIfNeeded()
                if let text = dashboard?.text { Self.show("\n" + text) }
            }
        }
        // Armed before the footer says so: a signal sent as soon as the footer shows is caught.
        let interrupted = armInterrupt()
        Self.show(dashboard!.text + "\n(refreshing every \(interval); Ctrl-C or SIGTERM ends)")
        for await _ in interrupted { break }
        recorder?.finishStreaming()
        guard let tracePath, let recorder else { return }
        if let fault = recorder.faults.first {
            // The app ran to the end; the exit status says the trace did not.
            throw WeatherCommandError(
                "the trace stopped at a fault: \(fault); what was written before it still opens", status: .ioError)
        }
        StandardOutput.write("\ntrace written to \(tracePath)\n")
    }

    /// Prints one frame or notice and flushes it: a live dashboard read through a pipe (`| tee`,
    /// a log collector) shows each frame as it is drawn, not when a buffer fills.
    nonisolated private static func show(_ text: String) {
        StandardOutput.write(text + "\n")
        // nil flushes every output stream; naming `stdout` is a shared mutable global to Swift 6.
        fflush(nil)
    }

    /// Catches SIGINT (Ctrl-C) and SIGTERM (`kill`, a service manager stopping the app): either
    /// ends the session cleanly, so a streamed trace gets its trailer, instead of killing it. The
    /// stream yields once, at the first of them.
    private func armInterrupt() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        let stops = [SIGINT, SIGTERM]
        for stop in stops { signal(stop, SIG_IGN) }
        let sources = stops.map { DispatchSource.makeSignalSource(signal: $0, queue: .main) }
        for source in sources {
            source.setEventHandler {
                for source in sources { source.cancel() }
                continuation.yield()
                continuation.finish()
            }
            source.resume()
        }
        return stream
    }
}
