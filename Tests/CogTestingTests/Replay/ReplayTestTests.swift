import Cog
import CogTesting
import CogTrace
import CogTraceStore
import Foundation
import Testing

/// A small app to replay: a private source published read-only, a derived state with a
/// threshold a test can move, and a source whose value is not `Codable`.
private let _priceCog = Cog<Int>.Manual(name: "replayDemo.price") { 100 }
private let _noteCog = Cog<Note>.Manual(name: "replayDemo.note") { Note(text: "") }
private let priceCog = _priceCog.readOnly
private let noteCog = _noteCog.readOnly
private let discountedCog = Cog<Int>(name: "replayDemo.discounted") { c in
    let price = c[priceCog]
    return price >= ReplayDemo.threshold ? price * 9 / 10 : price
}

/// A value with no structured form in a trace.
private struct Note: Equatable {
    let text: String
}

private enum ReplayDemo {
    /// The price from which the discount applies; tests move it to change the app's logic.
    static var threshold = 500

    static func setPrice(_ cogs: Cogs, _ price: Int) { cogs.turn("setPrice") { $0[_priceCog] = price } }
    static func setNote(_ cogs: Cogs, _ text: String) { cogs.turn("setNote") { $0[_noteCog] = Note(text: text) } }

    /// A session as a test would run it: two prices, each read after it is set.
    static func record(threshold: Int = 500) throws -> String {
        self.threshold = threshold
        defer { self.threshold = 500 }
        let app = try CogReplayApp(title: "demo", declarations: [])
        setPrice(app.cogs, 450)
        _ = app.cogs.peek(discountedCog)
        setNote(app.cogs, "regular")
        setPrice(app.cogs, 520)
        _ = app.cogs.peek(discountedCog)
        return app.recorder.traceText()
    }
}

/// A test that seeds the price before anything runs, as `Cogs.forTesting(seeding:)` does.
@MainActor
private func recordSeeded() -> String {
    let clock = TestClock()
    let cogs = Cogs.forTesting(clock: clock, seeding: { $0.seed(_priceCog, to: 640) })
    let recorder = CogRecorder(configuration: RecorderConfiguration(title: "seeded", clock: .virtual(clock)))
    recorder.attach(to: cogs)
    _ = cogs.peek(discountedCog)
    ReplayDemo.setPrice(cogs, 300)
    _ = cogs.peek(discountedCog)
    return recorder.traceText()
}

private enum DemoAssembly: CogReplayAssembly {
    static var declarations: [CogReplayDeclaration] { [.source(priceCog), .state(discountedCog)] }
}

private enum DemoAssemblyWithoutItsStates: CogReplayAssembly {
    static var declarations: [CogReplayDeclaration] { [] }
}

@Suite("Replay tests", .serialized)
struct ReplayTestTests {
    @Test(arguments: CogReplayCheck.allCases)
    func aRecordingReplaysAgainstTheSameCode(_ check: CogReplayCheck) async throws {
        let recording = try ReplayDemo.record()
        try await CogReplayTest(name: "same", recording: recording, check: check, skipping: ["replayDemo.note"])
            .run(DemoAssembly.self)
    }

    /// A moved threshold fails at the first step it shows, naming the state, the turn and step,
    /// and both values; the replay's trace is left beside the recording and `diff --trace`
    /// between them opens at that turn.
    @Test func aMovedThresholdFailsAtTheStepItFirstShows() async throws {
        let recording = try ReplayDemo.record()
        ReplayDemo.threshold = 400
        defer { ReplayDemo.threshold = 500 }
        let test = CogReplayTest(name: "moved-threshold", recording: recording, skipping: ["replayDemo.note"])
        let divergence = try await #require(throws: CogReplayDivergence.self) { try await test.run(DemoAssembly.self) }
        #expect(divergence.state == "replayDemo.discounted")
        #expect(divergence.turn == 1 && divergence.step == 1 && divergence.steps == 3)
        #expect(divergence.lines.first == "replayDemo.discounted: here 450; in the other 405")
        #expect(
            divergence.description.hasPrefix("the replay differs from the recording at turn 1+ (step 1 of 3, setPrice)")
        )
        let replayPath = try #require(divergence.replayPath)
        let recordingPath = try #require(divergence.recordingPath)
        let replay = try TraceFile.load(contentsOf: URL(fileURLWithPath: replayPath))
        let original = try TraceFile.load(contentsOf: URL(fileURLWithPath: recordingPath))
        #expect(try TraceComparison(original, replay).firstDivergence?.turn == 1)
    }

    /// Checking only later turns skips the first difference and reports the next one there.
    @Test func theTurnsCheckedCanStartLater() async throws {
        let recording = try ReplayDemo.record()
        ReplayDemo.threshold = 460
        defer { ReplayDemo.threshold = 500 }
        let all = CogReplayTest(name: "later", recording: recording, turns: 2...3, skipping: ["replayDemo.note"])
        try await all.run(DemoAssembly.self)
        ReplayDemo.threshold = 530
        let divergence = try await #require(throws: CogReplayDivergence.self) { try await all.run(DemoAssembly.self) }
        #expect(divergence.turn == 3)
        #expect(divergence.lines.first == "replayDemo.discounted: here 468; in the other 520")
    }

    @Test func labelsTheCodeNoLongerHasAreListed() async throws {
        let test = CogReplayTest(name: "missing", recording: try ReplayDemo.record())
        let error = try await #require(throws: ReplayError.self) {
            try await test.run(DemoAssemblyWithoutItsStates.self)
        }
        #expect(
            error.message.hasPrefix(
                "the code has no states 'replayDemo.discounted', 'replayDemo.note', 'replayDemo.price' that the "
                    + "recording names"))
    }

    /// A source the export marked as not rebuilt is left to the app, and not missed.
    @Test func aSkippedSourceIsNotMissing() async throws {
        let test = CogReplayTest(name: "skipped", recording: try ReplayDemo.record())
        let error = try await #require(throws: ReplayError.self) { try await test.run(DemoAssembly.self) }
        #expect(error.message.hasPrefix("the code has no state 'replayDemo.note'"))
    }

    /// A source the test seeded before the recorder attached is seeded again before the app
    /// starts: the first read sees the seeded price's discount.
    @Test func aSeededSourceIsSeededAgain() async throws {
        let recording = recordSeeded()
        #expect(recording.contains(#""t":"640""#))
        try await CogReplayTest(name: "seeded", recording: recording).run(DemoAssembly.self)
        let error = try await #require(throws: ReplayError.self) {
            try await CogReplayTest(name: "seeded-missing", recording: recording).run(DemoAssemblyReadingOnly.self)
        }
        #expect(error.message.hasPrefix("the code has no state 'replayDemo.price' that the recording names"))
    }
}

private enum DemoAssemblyReadingOnly: CogReplayAssembly {
    static var declarations: [CogReplayDeclaration] { [.state(discountedCog)] }
}
