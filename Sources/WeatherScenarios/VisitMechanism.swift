import Cog
import Weather

/// `weather run --visit`: looks at each of the given ZIPs in turn, one per interval, round and
/// round, so a live session changes location (and its nice alert can fire) without anyone
/// at the keyboard.
struct VisitMechanism: Mechanism {
    let zips: [ZipCode]
    let interval: Duration

    func operate(_ m: MechanismController) {
        let zips = zips
        let interval = interval
        m.task(name: "visit") { [weak m] in
            var next = 0
            while true {
                try await Task.sleep(for: interval)
                guard let m else { return }
                await m.visit(zips[next % zips.count])
                next += 1
            }
        }
    }
}

extension MechanismController {
    /// Selects `zip` and asks for its forecast, as a person tapping its card would.
    fileprivate func visit(_ zip: ZipCode) {
        selectLocation(zip)
        refreshForecast(for: zip)
    }
}
