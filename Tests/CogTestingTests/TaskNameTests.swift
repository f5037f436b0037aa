import Cog
import CogTesting
import Testing

/// The runtime names the tasks it starts after what they serve: a state's async work after the
/// state's label and key, a mechanism's task after its registration.
@Suite("Task names")
struct TaskNameTests {
    @Test func asyncWorkRunsInATaskNamedByItsStateAndKey() async {
        let forecast = CogBox<String?, Int>.Async(default: nil, name: "forecast") { _, _ in
            .run { CogTaskDiagnostic.currentTaskName }
        }
        let plain = Cog<String?>.Async(default: nil, name: "plain") { _ in
            .run { CogTaskDiagnostic.currentTaskName }
        }
        let (cogs, controller) = Cogs.forTestingWithController()
        // Each success yields what the work saw, a missing name too, so a wrong answer fails
        // rather than waits.
        let (names, continuation) = AsyncStream.makeStream(of: String.self)
        controller.run { c in
            let status = c.status[forecast[90_210]]
            if status.kind == .success { continuation.yield(status.value ?? "no name") }
        }
        controller.run { c in
            let status = c.status[plain]
            if status.kind == .success { continuation.yield(status.value ?? "no name") }
        }
        var iterator = names.makeAsyncIterator()
        let seen = [await iterator.next(), await iterator.next()].compactMap { $0 }
        #expect(Set(seen) == ["forecast[90210]", "plain"])
        #expect(CogTaskDiagnostic.currentTaskName != "forecast[90210]", "the name stays with the work's task")
        withExtendedLifetime(cogs) {}
    }

    @Test func aMechanismsTaskIsNamedByItsRegistration() async {
        let (names, continuation) = AsyncStream.makeStream(of: String.self)
        let cogs = Cogs.forTesting(mechanisms: [
            TaskNaming(name: "Weather") { controller in
                controller.task(name: "hourlyRefresh") {
                    continuation.yield(CogTaskDiagnostic.currentTaskName ?? "no name")
                }
            }
        ])
        var iterator = names.makeAsyncIterator()
        #expect(await iterator.next() == "Weather.hourlyRefresh")
        withExtendedLifetime(cogs) {}
    }
}

/// A mechanism that runs `body` with its controller.
private struct TaskNaming: Mechanism {
    let name: String
    let body: (MechanismController) -> Void

    func operate(_ m: MechanismController) { body(m) }
}
