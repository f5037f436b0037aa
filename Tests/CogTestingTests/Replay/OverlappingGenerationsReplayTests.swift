import Cog
import CogTesting
import CogTrace
import Testing

/// Uploads under `.merged`: runs overlap and each result publishes as it arrives. A replay must
/// give each recorded result to the generation that produced it, not to the newest one waiting,
/// or a run where the older upload answered first replays as the newer one answering.
private let uploads = ControlledWork<Int>()
private let uploadedCog = Cog<Int>.Async(.merged, default: 0, name: "replayMerged.uploaded") { _ in uploads.run() }

private enum UploadsAssembly: CogReplayAssembly {
    static var declarations: [CogReplayDeclaration] { [.state(uploadedCog)] }
}

@Suite("Replaying overlapping generations", .serialized)
struct OverlappingGenerationsReplayTests {
    /// Two uploads started, answered in the order `order` gives (1: the first started).
    private static func record(answering order: [Int]) async -> String {
        let clock = TestClock()
        let cogs = Cogs.forTesting(clock: clock)
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "uploads", clock: .virtual(clock)))
        recorder.attach(to: cogs)
        cogs.refresh(uploadedCog)
        cogs.refresh(uploadedCog)
        let started = [await uploads.nextStart(), await uploads.nextStart()]
        for generation in order {
            await started[generation - 1].succeed(generation * 10)
        }
        return recorder.traceText()
    }

    @Test(arguments: [[1, 2], [2, 1]])
    func eachResultGoesToTheGenerationThatMadeIt(_ order: [Int]) async throws {
        let recording = await Self.record(answering: order)
        #expect(recording.contains(#""e":"generationAccepted","s":1,"g":\#(order[0])"#), "\(recording)")
        try await CogReplayTest(name: "uploads-\(order[0])-first", recording: recording, check: .all)
            .run(UploadsAssembly.self)
    }
}
