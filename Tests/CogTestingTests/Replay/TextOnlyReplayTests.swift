import Cog
import CogTesting
import CogTrace
import Testing

/// A quote type that is not `Codable`: a trace keeps its description only.
private struct Quote: Equatable, Sendable {
    var cents: Int
}

private let quoteWork = ControlledWork<Quote>()
private let quoteCog = Cog<Quote>.Async(default: Quote(cents: 0), name: "replayTextOnly.quote") { _ in
    quoteWork.run()
}

private enum QuoteAssembly: CogReplayAssembly {
    static var declarations: [CogReplayDeclaration] { [.state(quoteCog)] }
}

/// A replay cannot answer an async generation whose recorded result is text only: it stops
/// before the first turn and names every such value, rather than failing at the first one.
@Suite("Replaying values recorded as text only", .serialized)
struct TextOnlyReplayTests {
    @Test func anAsyncResultRecordedAsTextOnlyStopsTheReplayAtItsStart() async throws {
        let clock = TestClock()
        let cogs = Cogs.forTesting(clock: clock)
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "quotes", clock: .virtual(clock)))
        recorder.attach(to: cogs)
        let handle = cogs.refresh(quoteCog)
        await quoteWork.nextStart().succeed(Quote(cents: 495))
        _ = await handle.outcome
        let recording = recorder.traceText()
        let test = CogReplayTest(name: "quotes", recording: recording, check: .derived)
        let error = await #expect(throws: (any Error).self) { try await test.run(QuoteAssembly.self) }
        let message = "\(error.map { String(describing: $0) } ?? "")"
        #expect(
            message.contains("the recording holds values replay cannot rebuild, recorded as text only"), "\(message)")
        #expect(message.contains("replayTextOnly.quote (async result, Quote, first at turn 2)"), "\(message)")
    }
}
