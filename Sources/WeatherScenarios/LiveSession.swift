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
            notifier: WeatherNotifier { message in print("🔔 \(message)") }, interval: interval)
        cogs.start(visits.isEmpty ? [weather] : [weather, VisitMechanism(zips: visits, interval: interval)])
        var dashboard: WeatherDashboard?
        dashboard = WeatherDashboard(cogs: cogs) {
            Task { @MainActor in
                dashboard?.renderIfNeeded()
                if let text = dashboard?.text { print("\n" + text) }
            }
        }
        print(dashboard!.text)
        print("(refreshing every \(interval); Ctrl-C or SIGTERM ends)")
        await waitForInterrupt()
        recorder?.finishStreaming()
        guard let tracePath, let recorder else { return }
        if let fault = recorder.faults.first {
            print("\nthe trace stopped at a fault: \(fault); what was written before it still opens")
        } else {
            print("\ntrace written to \(tracePath)")
        }
    }

    /// Suspends until SIGINT (Ctrl-C) or SIGTERM (`kill`, a service manager stopping the app):
    /// either ends the session cleanly, so a streamed trace gets its trailer, instead of killing it.
    private func waitForInterrupt() async {
        let stops = [SIGINT, SIGTERM]
        for stop in stops { signal(stop, SIG_IGN) }
        let sources = stops.map { DispatchSource.makeSignalSource(signal: $0, queue: .main) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            var resumed = false
            for source in sources {
                source.setEventHandler {
                    for source in sources { source.cancel() }
                    guard !resumed else { return }
                    resumed = true
                    continuation.resume()
                }
                source.resume()
            }
        }
    }
}
