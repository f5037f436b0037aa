import Cog
import CogScripting
import Foundation
import Weather

/// A scripted Weather session whose recording ships in `Recordings/`.
struct Scenario {
    let name: String
    /// One line for `weather scenarios`.
    let summary: String
    /// What to look for in the recording, and a first inspector command to try.
    let lookFor: String
    let firstCommand: String
    let script: @MainActor (ScenarioSession) async -> Void

    /// Runs the script on a fresh session (answering from `feed`, streaming to `streamURL` when
    /// given) and returns it.
    func run(feed: DemoFeed = DemoFeed(), streamingTo streamURL: URL? = nil) async -> ScenarioSession {
        let session = ScenarioSession(title: name, feed: feed, streamingTo: streamURL)
        await script(session)
        return session
    }

    static func named(_ name: String) -> Scenario? {
        all.first { $0.name == name }
    }

    static let all: [Scenario] = [tour, heatAdvisory, serviceOutage, staleRefresh, switching, map, screens]
}

extension Scenario {
    static let tour = Scenario(
        name: "tour",
        summary: "start-up, switching among the three cities, refreshes through each rotation, hourly ticks",
        lookFor: "the nice-outside alert on turn after New York's first reading; isNiceHere re-wiring per city",
        firstCommand: "history weather.isNiceHere"
    ) { session in
        let cogs = session.cogs
        await session.deliverStartUp()
        cogs.selectLocation(.sanFrancisco)
        cogs.selectLocation(.seattle)
        cogs.selectLocation(.newYork)
        for _ in 0..<3 {
            cogs.refreshForecast(for: .newYork)
            await session.deliver(.newYork)
        }
        cogs.selectLocation(.sanFrancisco)
        for _ in 0..<2 {
            await session.passAnHour()
            await session.deliver(.sanFrancisco)
        }
        cogs.selectLocation(.seattle)
        await session.passAnHour()
        await session.deliver(.seattle)
    }

    static let heatAdvisory = Scenario(
        name: "heat-advisory", summary: "New York's clear 94 with a heat advisory: sunny, but not nice",
        lookFor: "weather.isSunny[10001] true while weather.isNice[10001] turns false",
        firstCommand: "why weather.isNice[10001]"
    ) { session in
        let cogs = session.cogs
        await session.deliverStartUp()
        for _ in 0..<3 {
            cogs.refreshForecast(for: .newYork)
            await session.deliver(.newYork)
        }
    }

    static let serviceOutage = Scenario(
        name: "service-outage", summary: "a failing service keeps the last reading; the next hourly tick recovers",
        lookFor: "a 'weather.forecast[10001] failure' turn whose value stays the last reading",
        firstCommand: "async weather.forecast[10001]"
    ) { session in
        await session.deliverStartUp()
        await session.passAnHour()
        await session.fail(.newYork, "service unavailable")
        await session.passAnHour()
        await session.deliver(.newYork)
    }

    static let staleRefresh = Scenario(
        name: "stale-refresh", summary: "a refresh supersedes one in flight; the late result is rejected",
        lookFor: "generation 2 cancelled and its late result rejected; generation 3 accepted",
        firstCommand: "async weather.forecast[10001]"
    ) { session in
        let cogs = session.cogs
        await session.deliverStartUp()
        cogs.refreshForecast(for: .newYork)
        let stale = await session.hold(.newYork)
        cogs.refreshForecast(for: .newYork)
        await session.deliver(stale)
        await session.deliver(.newYork)
    }

    static let switching = Scenario(
        name: "switching", summary: "rapid location changes re-wire isNiceHere's keyed dependency",
        lookFor: "weather.isNiceHere's dependencies moving from isNice[10001] to [94105], [98101], [60601]",
        firstCommand: "deps weather.isNiceHere"
    ) { session in
        let cogs = session.cogs
        await session.deliverStartUp()
        for zip in [ZipCode.sanFrancisco, .seattle, .newYork, .sanFrancisco, ZipCode("60601")] {
            cogs.selectLocation(zip)
        }
        await session.deliver(ZipCode("60601"))
    }

    static let map = Scenario(
        name: "map", summary: "a map export leases the map location; when it stops, grace releases it",
        lookFor: "an export lease on weather.mapLocation, then its release after the grace period",
        firstCommand: "leases weather.mapLocation"
    ) { session in
        let cogs = session.cogs
        await session.deliverStartUp()
        let before = cogs.registrationCount
        do {
            let locations = cogs.values(of: mapLocationCog, buffering: .unbounded)
            cogs.selectLocation(.sanFrancisco)
            cogs.selectLocation(.seattle)
            var iterator = locations.makeAsyncIterator()
            for _ in 0..<3 { _ = await iterator.next() }
        }
        while cogs.registrationCount > before { await Task.yield() }
        session.pass(ScenarioSession.grace)
    }

    static let screens = Scenario(
        name: "screens", summary: "opening and closing per-ZIP detail screens with scope(each:) and discard",
        lookFor: "a scope opening per screen, and 'discard weather.detailNote[10001]' releasing the note",
        firstCommand: "turns --name discard"
    ) { session in
        let cogs = session.cogs
        await session.deliverStartUp()
        cogs.openDetailScreen(.newYork)
        cogs.openDetailScreen(.sanFrancisco)
        cogs.writeDetailNote("bring an umbrella", for: .newYork)
        cogs.writeDetailNote("layers", for: .sanFrancisco)
        cogs.closeDetailScreen(.newYork)
        cogs.refreshForecast(for: .sanFrancisco)
        await session.deliver(.sanFrancisco)
        cogs.closeDetailScreen(.sanFrancisco)
    }
}
