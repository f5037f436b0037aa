import Cog
import CogTesting
import Testing

struct TrailScreenID: Hashable, Sendable, CustomStringConvertible {
    let rawValue: Int
    var description: String { "\(rawValue)" }
}

struct Trail: Equatable, Sendable {
    let name: String
}

private let _activeTrailScreenCog = Cog<TrailScreenID?>.Manual(name: "trail.active") { nil }
private let _openTrailScreensCog = Cog<[TrailScreenID]>.Manual(name: "trail.open") { [] }
private let _trailFilterCogs = CogBox<String, TrailScreenID>.Manual(
    name: "trail.filter", lifetime: .whileObserved(resetToInitial: true)
) { "" }
private let _loadedTrailCogs = CogBox<Trail?, TrailScreenID>.Manual(name: "trail.loaded") { nil }
let trailFilterCogs = _trailFilterCogs.readOnly
let loadedTrailCogs = _loadedTrailCogs.readOnly

extension CogOps {
    fileprivate func showTrailScreen(_ id: TrailScreenID?) { turn(_activeTrailScreenCog, to: id) }

    fileprivate func openTrailScreen(_ id: TrailScreenID) {
        turn { c in c[_openTrailScreensCog] = c[_openTrailScreensCog] + [id] }
    }

    fileprivate func setOpenTrailScreens(_ ids: [TrailScreenID]) { turn(_openTrailScreensCog, to: ids) }

    fileprivate func setTrailFilter(_ filter: String, on id: TrailScreenID) {
        turn(_trailFilterCogs[id], to: filter)
    }

    /// The guide's closing op: end the screen, then discard its filter.
    fileprivate func closeTrailScreen(_ id: TrailScreenID) {
        turn { c in c[_openTrailScreensCog].removeAll { $0 == id } }
        discard(_trailFilterCogs[id])
    }

    /// Publishes a load only if the requesting screen is still open.
    fileprivate func acceptTrail(_ trail: Trail, receipt: TrailScreenID) {
        turn { c in
            guard c[_openTrailScreensCog].contains(receipt) else { return }
            c[_loadedTrailCogs[receipt]] = trail
        }
    }
}

/// Records analytics per screen: one watch per open screen, through the scope forms.
private final class Analytics {
    var events: [String] = []
}

private struct ActiveScreenMechanism: Mechanism {
    let analytics: Analytics

    func operate(_ m: MechanismController) {
        m.scope(_activeTrailScreenCog, name: "trailScreen") { screenID, s in
            analytics.events.append("open \(screenID)")
            s.watch(trailFilterCogs[screenID], initial: .skip, name: "filter") { _, filter in
                analytics.events.append("filter \(screenID) \(filter)")
            }
        }
    }
}

private struct OpenScreensMechanism: Mechanism {
    let analytics: Analytics

    func operate(_ m: MechanismController) {
        m.scope(each: _openTrailScreensCog, name: "trailScreen") { screenID, s in
            analytics.events.append("open \(screenID)")
            s.watch(trailFilterCogs[screenID], initial: .skip, name: "filter") { _, filter in
                analytics.events.append("filter \(screenID) \(filter)")
            }
        }
    }
}

@Suite("Recipe: trail screens")
struct TrailScreenRecipeTests {
    private let a = TrailScreenID(rawValue: 1)
    private let b = TrailScreenID(rawValue: 2)

    @Test func anOptionalIdentityScopeReplacesAWithB() {
        let analytics = Analytics()
        let cogs = Cogs.forTesting(mechanisms: [ActiveScreenMechanism(analytics: analytics)])
        cogs.showTrailScreen(a)
        cogs.setTrailFilter("easy", on: a)
        cogs.showTrailScreen(a)
        cogs.showTrailScreen(b)
        cogs.setTrailFilter("hard", on: a)
        cogs.setTrailFilter("long", on: b)
        cogs.showTrailScreen(nil)
        cogs.setTrailFilter("short", on: b)
        #expect(analytics.events == ["open 1", "filter 1 easy", "open 2", "filter 2 long"])
        #expect(cogs.liveRegistrationCount == 1, "only the scope's own reaction remains")
    }

    @Test func aCollectionScopeOpensAddsKeepsAndReordersWithoutRestarting() {
        let analytics = Analytics()
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        cogs.start([OpenScreensMechanism(analytics: analytics)])
        cogs.openTrailScreen(a)
        cogs.openTrailScreen(b)
        cogs.setOpenTrailScreens([b, a])
        cogs.setTrailFilter("easy", on: a)
        cogs.setOpenTrailScreens([b])
        cogs.setTrailFilter("hard", on: a)
        cogs.setTrailFilter("long", on: b)
        #expect(analytics.events == ["open 1", "open 2", "filter 1 easy", "filter 2 long"])
        #expect(
            log.lines(startingWith: "open", "retire") == [
                "open OpenScreens.trailScreen[1]", "open OpenScreens.trailScreen[2]",
                "retire OpenScreens.trailScreen[1]",
            ])
    }

    @Test func removingAndRestoringWithinOneTurnRestartsNothing() {
        let analytics = Analytics()
        let cogs = Cogs.forTesting(mechanisms: [OpenScreensMechanism(analytics: analytics)])
        cogs.openTrailScreen(a)
        cogs.turn { c in
            c[_openTrailScreensCog] = []
            c[_openTrailScreensCog] = [a]
        }
        #expect(analytics.events == ["open 1"])
    }

    @Test func duplicateIdentitiesAreARuntimeError() {
        let cogs = Cogs.forTesting(mechanisms: [OpenScreensMechanism(analytics: Analytics())])
        let diagnostics = cogs.collectingDiagnostics {
            cogs.setOpenTrailScreens([a, a])
        }
        #expect(
            diagnostics.map(\.message) == [
                "scope 'OpenScreens.trailScreen' got the identity '1' twice in one collection; "
                    + "give each entry a distinct identity"
            ])
    }

    @Test func aDuplicateIdentityTrapsNamingTheScopeAndTheIdentityInProduction() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let cogs = Cogs.forTesting(mechanisms: [OpenScreensMechanism(analytics: Analytics())])
                cogs.setOpenTrailScreens([
                    TrailScreenID(rawValue: 7), TrailScreenID(rawValue: 9), TrailScreenID(rawValue: 7),
                ])
            }
        }
        let text = result.standardErrorText
        #expect(text.contains("scope 'OpenScreens.trailScreen' got the identity '7' twice"), "stderr was: \(text)")
        #expect(text.contains("distinct identity"), "stderr was: \(text)")
    }

    @Test func closingAScreenDiscardsItsFilterAndLeavesOthersAlone() {
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        cogs.openTrailScreen(a)
        cogs.openTrailScreen(b)
        cogs.setTrailFilter("easy", on: a)
        cogs.setTrailFilter("hard", on: b)
        let spy = ObservationSpy { _ = cogs[trailFilterCogs[a]] }
        cogs.closeTrailScreen(a)
        #expect(
            log.lines(startingWith: "turn").suffix(2) == [
                "turn 5 closeTrailScreen(_:) op", "turn 6 discard trail.filter[1] discard",
            ])
        #expect(log.lines(startingWith: "release") == ["release trail.filter[1] discarded"])
        #expect(spy.changes == 1, "a reader still tracking is notified after the release")
        #expect(cogs.peek(trailFilterCogs[a]) == "", "a later read starts over at the initial value")
        #expect(cogs.peek(trailFilterCogs[b]) == "hard")
    }

    @Test func aLateCompletionForAClosedScreenIsRejectedByTheOp() {
        let cogs = Cogs.forTesting()
        cogs.openTrailScreen(a)
        cogs.closeTrailScreen(a)
        cogs.acceptTrail(Trail(name: "Ridge"), receipt: a)
        #expect(cogs.peek(loadedTrailCogs[a]) == nil)
        cogs.openTrailScreen(b)
        cogs.acceptTrail(Trail(name: "Lake"), receipt: b)
        #expect(cogs.peek(loadedTrailCogs[b]) == Trail(name: "Lake"))
    }

    @Test func aThousandOpenCloseCyclesLeaveNothingBehind() {
        let analytics = Analytics()
        let cogs = Cogs.forTesting(mechanisms: [OpenScreensMechanism(analytics: analytics)])
        _ = cogs.peek(_openTrailScreensCog)
        let baseline = (cogs.liveStateCount, cogs.liveRegistrationCount, cogs.liveTaskCount)
        for cycle in 0..<1_000 {
            let id = TrailScreenID(rawValue: 10_000 + cycle)
            cogs.openTrailScreen(id)
            cogs.setTrailFilter("f\(cycle)", on: id)
            cogs.closeTrailScreen(id)
        }
        #expect(analytics.events.count == 2_000)
        #expect((cogs.liveStateCount, cogs.liveRegistrationCount, cogs.liveTaskCount) == baseline)
    }
}
