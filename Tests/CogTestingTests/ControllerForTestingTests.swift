import Cog
import CogTesting
import Testing

private let _stepsCog = Cog<Int>.Manual(name: "probe.steps") { 0 }
private let doubledStepsCog = Cog<Int>(name: "probe.doubled") { c in c[_stepsCog] * 2 }

private struct StepSeeder: Mechanism {
    func operate(_ m: MechanismController) { m.turn(_stepsCog, to: 3) }
}

/// `forTestingWithController` gives a test the controller a mechanism would get, with its
/// registrations living as long as the runtime.
@Suite("A runtime with a controller for the test")
struct ControllerForTestingTests {
    @Test func theControllerRegistersForTheRuntimesLifeAfterTheMechanismsStarted() {
        let (cogs, controller) = Cogs.forTestingWithController(mechanisms: [StepSeeder()])
        var seen: [Int] = []
        controller.run(name: "reader") { c in seen.append(c[doubledStepsCog]) }
        #expect(seen == [6], "the probe starts after the caller's mechanisms")
        cogs.turn(_stepsCog, to: 4)
        #expect(seen == [6, 8])
        #expect(controller.isRetired == false)
    }

    @Test func seedingMayBeAnOptionalClosure() {
        let seeding: ((Cogs) -> Void)? = { $0.seed(_stepsCog, to: 9) }
        let (cogs, _) = Cogs.forTestingWithController(seeding: seeding)
        #expect(cogs.peek(_stepsCog) == 9)
        let unseeded = Cogs.forTesting(seeding: nil)
        #expect(unseeded.peek(_stepsCog) == 0)
    }
}
