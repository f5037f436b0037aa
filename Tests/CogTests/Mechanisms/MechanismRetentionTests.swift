import Cog
import CogTesting
import Synchronization
import Testing

/// What happened, in order, from code that runs on and off the MainActor (a deinit, a
/// cancellation handler).
private nonisolated final class Milestones: Sendable {
    private let list = Mutex<[String]>([])

    func note(_ milestone: String) { list.withLock { $0.append(milestone) } }
    var all: [String] { list.withLock { $0 } }
}

/// Something a mechanism owns and its registrations may use until they stop.
private nonisolated final class Socket: Sendable {
    let milestones: Milestones
    init(_ milestones: Milestones) { self.milestones = milestones }
    deinit { milestones.note("socket closed") }
}

/// A class mechanism with a resource and one task that runs until it is cancelled.
private final class SocketMechanism: Mechanism {
    let name = "Socket"
    private let socket: Socket
    private let started: AsyncStream<Void>.Continuation

    init(_ milestones: Milestones, started: AsyncStream<Void>.Continuation) {
        socket = Socket(milestones)
        self.started = started
    }

    func operate(_ m: MechanismController) {
        let milestones = socket.milestones
        let started = started
        m.task(name: "listen") {
            await withTaskCancellationHandler {
                started.yield()
                try? await Task.sleep(for: .seconds(3_600))
            } onCancel: {
                milestones.note("task cancelled")
            }
        }
    }

    deinit { socket.milestones.note("mechanism released") }
}

/// The runtime keeps the mechanisms it was handed, as the public library does: a class
/// mechanism nobody else holds lives as long as the runtime, and goes only after its tasks were
/// told to stop, so what they use outlives them.
@Suite("Mechanisms are kept by the runtime", .timeLimit(.minutes(5)))
struct MechanismRetentionTests {
    @Test func aMechanismLivesWithTheRuntimeAndGoesAfterItsTasksStop() async throws {
        let milestones = Milestones()
        let (starts, started) = AsyncStream.makeStream(of: Void.self)
        weak var kept: SocketMechanism?
        var cogs: Cogs? = {
            let mechanism = SocketMechanism(milestones, started: started)
            kept = mechanism
            return Cogs.forTesting(mechanisms: [mechanism])
        }()
        let teardown = MainActorCleanupAcknowledgement()
        cogs?.acknowledgeDeinitCleanup(with: teardown)
        var startIterator = starts.makeAsyncIterator()
        _ = await startIterator.next()
        #expect(kept != nil, "only the runtime holds it, and it is alive")
        #expect(milestones.all.isEmpty)

        cogs = nil
        try await teardown.wait()
        #expect(kept == nil)
        #expect(milestones.all == ["task cancelled", "mechanism released", "socket closed"])
    }
}
