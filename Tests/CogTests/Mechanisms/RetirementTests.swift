import Cog
import CogTesting
import Testing

private let _gateCog = Cog<Bool>.Manual(name: "gate") { true }
private let _noteCog = Cog<String>.Manual(name: "note") { "" }
private let _tickCog = Cog<Int>.Manual(name: "tick") { 0 }
private let _retiredForecastCog = Cog<Int>.Async(default: 0, name: "retired.forecast") { _ in .run { 1 } }
private let _retiredDraftCog = Cog<String>.Manual(name: "retired.draft", lifetime: .whileObserved(resetToInitial: true))
{
    ""
}

extension CogOps {
    fileprivate func closeGate() { turn(_gateCog, to: false) }
    fileprivate func writeNote(_ note: String) { turn(_noteCog, to: note) }
}

/// Keeps the sub-controller a scope body received, as a late async completion would.
private final class ControllerBox {
    var controller: MechanismController?
    weak var weakController: MechanismController?
}

private func gatedMechanism(_ box: ControllerBox, onTick: (() -> Void)? = nil) -> ClosureMechanism {
    ClosureMechanism(name: "Gated") { m in
        m.scope(_gateCog, name: "open") { s in
            box.controller = s
            box.weakController = s
            s.watch(_tickCog, name: "ticks") { _, _ in onTick?() }
        }
    }
}

/// Retires the gated scope, then hands its controller to `use`, as a late completion would.
private func useRetiredController(_ use: (MechanismController) -> Void) {
    let box = ControllerBox()
    let cogs = Cogs.forTesting(mechanisms: [gatedMechanism(box)])
    cogs.closeGate()
    use(box.controller!)
}

/// The trap names the operation, the scope, that it was retired, and the way out.
private func expectRetirementTrap(_ result: ExitTest.Result?, operation: String) {
    let text = result.standardErrorText
    #expect(text.contains("`\(operation)`"), "stderr was: \(text)")
    #expect(text.contains("'Gated.open' after it was retired"), "stderr was: \(text)")
    #expect(text.contains("ifLive { $0.\(operation)(...) }"), "stderr was: \(text)")
}

@Suite("Retirement")
struct RetirementTests {
    @Test func aRetiredControllersTurnsDoNothingIncludingAQueuedOne() {
        let box = ControllerBox()
        let cogs = Cogs.forTesting(mechanisms: [gatedMechanism(box)])
        let log = EventLog.attached(to: cogs)
        let scope = box.controller!
        #expect(scope.isRetired == false)
        cogs.start([
            ClosureMechanism(name: "Closer") { m in
                m.watch(_tickCog, name: "closeThenWrite") { _, _ in
                    m.closeGate()
                    scope.writeNote("queued before retirement")
                }
            }
        ])
        cogs.turn("tick") { c in c[_tickCog] = 1 }
        #expect(scope.isRetired)
        #expect(cogs.peek(_noteCog) == "")
        #expect(
            log.lines(startingWith: "drop") == [
                "drop Gated.open.writeNote(_:): its scope 'Gated.open' retired"
            ])
        scope.writeNote("after retirement")
        #expect(cogs.peek(_noteCog) == "")
    }

    /// A scope's body runs after the scope's own run, so a turn it starts while the runtime is
    /// idle runs at once: a body that lowers its own gate is retired for the rest of its body, and
    /// what it registers after that never runs (MECH-30 in the public library).
    @Test func aScopeBodyThatLowersItsOwnGateIsRetiredForTheRestOfItsBody() {
        var bodyRuns = 0
        var readerRuns: [Int] = []
        var retiredBeforeTheBodyEnded: Bool?
        let cogs = Cogs.forTesting(mechanisms: [
            ClosureMechanism(name: "SelfClosing") { m in
                m.scope(_gateCog, name: "once") { s in
                    bodyRuns += 1
                    s.closeGate()
                    s.run(name: "late") { c in readerRuns.append(c[_tickCog]) }
                    retiredBeforeTheBodyEnded = s.isRetired
                }
            }
        ])
        #expect(bodyRuns == 1)
        #expect(retiredBeforeTheBodyEnded == true)
        #expect(readerRuns == [], "registered after its scope retired, it never ran")
        #expect(cogs.peek(_gateCog) == false, "the body's turn lowered the gate")
        cogs.turn("tick") { c in c[_tickCog] = 1 }
        #expect(readerRuns == [])
        #expect(cogs.liveRegistrationCount == 1, "only the scope's own reaction is left")
    }

    @Test func registrationsStartNothingAndTasksComeBackCancelled() {
        let box = ControllerBox()
        let cogs = Cogs.forTesting(mechanisms: [gatedMechanism(box)])
        let scope = box.controller!
        cogs.closeGate()
        let registrations = cogs.liveRegistrationCount
        var ran = false
        scope.run(name: "late") { _ in ran = true }
        scope.watch(_tickCog, name: "lateWatch") { _, _ in ran = true }
        let task = scope.task(name: "late") {}
        #expect(ran == false)
        #expect(task.isCancelled)
        #expect(cogs.liveRegistrationCount == registrations)
    }

    @Test func aRetiredControllersReadsFailAndIfLiveReturnsNil() {
        let box = ControllerBox()
        let cogs = Cogs.forTesting(mechanisms: [gatedMechanism(box)])
        let scope = box.controller!
        #expect(scope.ifLive { $0.peek(_noteCog) } == "")
        cogs.closeGate()
        #expect(scope.ifLive { $0.peek(_noteCog) } == nil)
        let diagnostics = cogs.collectingDiagnostics {
            _ = scope.peek(_noteCog)
        }
        #expect(
            diagnostics.map(\.message) == [
                "`peek` through the controller of 'Gated.open' after it was retired; "
                    + "after a suspension, use ifLive { $0.peek(...) }"
            ])
    }

    @Test func aRetiredControllersPeekTrapsInProduction() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let box = ControllerBox()
                let cogs = Cogs.forTesting(mechanisms: [gatedMechanism(box)])
                cogs.closeGate()
                _ = box.controller!.peek(_noteCog)
            }
        }
        #expect(result.standardErrorText.contains("`peek` through the controller of 'Gated.open' after it was retired"))
    }

    @Test func aRetiredControllersStatusPeekTrapsNamingTheOperation() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run { useRetiredController { _ = $0.status.peek(_retiredForecastCog) } }
        }
        expectRetirementTrap(result, operation: "status.peek")
    }

    @Test func aRetiredControllersRefreshTrapsNamingTheOperation() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run { useRetiredController { $0.refresh(_retiredForecastCog) } }
        }
        expectRetirementTrap(result, operation: "refresh")
    }

    /// Discard is a primitive like `turn`: through a retired controller it does nothing, so the
    /// state keeps its value until the runtime itself discards it.
    @Test func aRetiredControllersDiscardIsInert() {
        let box = ControllerBox()
        let cogs = Cogs.forTesting(mechanisms: [gatedMechanism(box)])
        cogs.turn(_retiredDraftCog, to: "kept")
        _ = cogs[_retiredDraftCog]
        cogs.closeGate()
        let diagnostics = cogs.collectingDiagnostics { box.controller!.discard(_retiredDraftCog) }
        #expect(diagnostics.isEmpty)
        #expect(cogs.peek(_retiredDraftCog) == "kept")
        #expect(cogs.hasObservationBoundary(for: _retiredDraftCog))
        cogs.discard(_retiredDraftCog)
        #expect(cogs.peek(_retiredDraftCog) == "")
    }

    /// A status lens kept past its controller's retirement registers nothing.
    @Test func aRetiredControllersStatusLensWatchesNothing() {
        let box = ControllerBox()
        let cogs = Cogs.forTesting(mechanisms: [gatedMechanism(box)])
        let lens = box.controller!.status
        cogs.closeGate()
        var runs = 0
        lens.watch(_retiredForecastCog, initial: .run, name: "late") { _, _ in runs += 1 }
        #expect(runs == 0)
    }

    @Test func aRetiredScopesControllerIsReleasedSoWeakCapturesEnd() {
        let box = ControllerBox()
        let cogs = Cogs.forTesting(mechanisms: [gatedMechanism(box)])
        box.controller = nil
        #expect(box.weakController != nil, "the live scope keeps its controller")
        cogs.closeGate()
        #expect(box.weakController == nil)
    }

    @Test func aRuntimeAndItsMechanismsDeinitWhenDropped() async {
        weak var weakCogs: Cogs?
        weak var weakMechanismState: ControllerBox?
        do {
            let box = ControllerBox()
            weakMechanismState = box
            let clock = TestClock()
            let cogs = Cogs.forTesting(mechanisms: [
                ClosureMechanism(name: "Timer") { m in
                    m.watch(_tickCog, name: "box") { _, _ in _ = box }
                    m.task(name: "sleep") { try await clock.sleep(for: .seconds(60)) }
                }
            ])
            weakCogs = cogs
            await clock.waitForSleepers(1)
            #expect(cogs.liveTaskCount == 1)
        }
        #expect(weakCogs == nil)
        #expect(weakMechanismState == nil)
    }
}

/// What a cancelled task saw of a cousin scope while the runtime was being torn down.
@MainActor private final class TeardownSighting {
    var cousinWasLive: Bool?
    weak var cousin: MechanismController?
}

@Suite("Retirement at teardown")
struct TeardownRetirementTests {
    @Test func duringTeardownNoScopeStillReportsLive() async {
        let sighting = TeardownSighting()
        let started = MainActorCleanupAcknowledgement()
        let first = ClosureMechanism(name: "First") { m in
            m.scope(_gateCog, name: "open") { s in
                s.task(name: "waits") {
                    await withTaskCancellationHandler {
                        await MainActor.run { started.acknowledge() }
                        try? await Task.sleep(for: .seconds(3_600))
                    } onCancel: {
                        // Cancellation runs where teardown cancels the task: on the MainActor.
                        MainActor.assumeIsolated {
                            sighting.cousinWasLive = sighting.cousin?.ifLive { _ in true } ?? false
                        }
                    }
                }
            }
        }
        let second = ClosureMechanism(name: "Second") { m in
            m.scope(_gateCog, name: "open") { s in sighting.cousin = s }
        }
        let teardown = MainActorCleanupAcknowledgement()
        do {
            let cogs = Cogs.forTesting(mechanisms: [first, second])
            #expect(sighting.cousin != nil)
            try? await started.wait()
            cogs.acknowledgeDeinitCleanup(with: teardown)
        }
        try? await teardown.wait()
        #expect(sighting.cousinWasLive == false, "the cousin scope, not yet cleaned up, was already retired")
    }
}
