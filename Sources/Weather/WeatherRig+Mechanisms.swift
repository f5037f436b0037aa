public import Cog

/// The Weather app's side effects: publish the cadence, select New York, load the initial ZIPs,
/// alert when it becomes nice where the person is looking, refresh the current ZIP on a
/// drift-free schedule, and keep a watch per open detail screen.
public struct WeatherMechanism: Mechanism {
    let notifier: WeatherNotifier
    let clock: any Clock<Duration>
    let interval: Duration

    /// - Parameters:
    ///   - notifier: Where alerts go.
    ///   - clock: The clock the hourly refresh runs on (a `TestClock` in scenarios).
    ///   - interval: The refresh cadence it publishes (an hour by default).
    public init(
        notifier: WeatherNotifier, clock: any Clock<Duration> = ContinuousClock(),
        interval: Duration = .seconds(3_600)
    ) {
        self.notifier = notifier
        self.clock = clock
        self.interval = interval
    }

    public func operate(_ m: MechanismController) {
        m.publishRefreshInterval(interval)
        m.selectLocation(.newYork)
        for zip in ZipCode.initial { m.refreshForecast(for: zip) }

        let logic = WeatherLogic.current
        if logic.registersScopeFirst { keepDetailScreens(m) }
        let notifier = notifier
        m.watch(isNiceHereCog, initial: logic.alertsOnStart ? .run : .skip, name: "niceAlert") {
            [weak m] wasNice, isNice in
            guard !wasNice, isNice, let m else { return }
            let zip = m.peek(currentZipCog)
            notifier.alert("It is nice outside in \(zip?.city ?? "your area")!")
        }

        let clock = clock
        let interval = interval
        m.task(name: "hourlyRefresh") { [weak m] in
            try await repeatWithoutDrift(on: clock, every: interval) { [weak m] in
                guard let m else { return false }
                await m.refreshCurrentForecast()
                return true
            }
        }

        if !logic.registersScopeFirst { keepDetailScreens(m) }
    }

    /// A watch of the forecast for each open detail screen.
    private func keepDetailScreens(_ m: MechanismController) {
        m.scope(each: openDetailScreensCog, name: "detailScreen") { zip, s in
            s.watch(weatherForecastCogs[zip], initial: .skip, name: "forecast") { _, _ in }
        }
    }
}

extension MechanismController {
    /// Refreshes the current ZIP; a failure shows on its card and the schedule goes on.
    fileprivate func refreshCurrentForecast() {
        guard let zip = ifLive({ $0.peek(currentZipCog) }) ?? nil else { return }
        refreshForecast(for: zip)
    }
}

/// Calls `tick` at start + interval, start + 2 × interval, …: each deadline is computed from the
/// start, not from when the previous tick ended, so slow ticks do not push the schedule back.
/// Stops when `tick` returns false or the task is cancelled.
private func repeatWithoutDrift<C: Clock>(
    on clock: C, every interval: Duration, _ tick: @Sendable () async -> Bool
) async throws where C.Duration == Duration {
    var deadline = clock.now
    while true {
        deadline = deadline.advanced(by: interval)
        try await clock.sleep(until: deadline, tolerance: nil)
        guard await tick() else { return }
    }
}
