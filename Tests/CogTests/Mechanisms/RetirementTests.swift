import Cog
import CogTesting
import Testing

private let _gateCog = Cog<Bool>.Manual(name: "gate") { true }
private let _noteCog = Cog<String>.Manual(name: "note") { "" }
private let _tickCog = Cog<Int>.Manual(name: "tick") { 0 }

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
                "drop writeNote(_:): its scope 'Gated.open' retired"
            ])
        scope.writeNote("after retirement")
        #expect(cogs.peek(_noteCog) == "")
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
                "peek through the retired controller of 'Gated.open'; use ifLive { $0.peek(...) } after a suspension"
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
        #expect(result.standardErrorText.contains("peek through the retired controller of 'Gated.open'"))
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
