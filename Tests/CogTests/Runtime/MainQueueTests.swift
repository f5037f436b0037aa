import Dispatch
import Testing

@testable import Cog

/// The question the test clock's bookings ask before touching a graph: whether the MainActor
/// runs the caller. Swift Testing parks the main thread in `dispatchMain()` on Linux, so the
/// MainActor's jobs run on worker threads that also run other work; the old answer (the thread
/// that made the graph) let a clock on such a worker assume the MainActor and trap.
@Suite("The main queue")
struct MainQueueTests {
    @Test func theMainActorRunsOnTheMainQueue() async {
        #expect(MainQueue.isCurrent)
        let elsewhere = await Task.detached { MainQueue.isCurrent }.value
        #expect(!elsewhere)
        #expect(MainQueue.isCurrent)
    }

    @Test func aGlobalQueueIsNotTheMainQueue() async {
        let answers = await withCheckedContinuation { (done: CheckedContinuation<[Bool], Never>) in
            DispatchQueue.global().async {
                let onGlobal = MainQueue.isCurrent
                DispatchQueue.main.async { done.resume(returning: [onGlobal, MainQueue.isCurrent]) }
            }
        }
        #expect(answers == [false, true])
    }
}
