import Cog
import CogTesting
import CogTrace
import Testing

/// A replay test as `export test` writes it, in a module without MainActor default isolation:
/// the suite and its test are nonisolated, the assembly is marked `@MainActor` (as such a
/// client marks what touches the runtime), and the call is the generated one. `Position` is not
/// `Codable`, so the cursor is skipped, as the generated file would say. It checks derived values:
/// the session reads the async total twice between two turns (a value, then its status), and
/// replay reads a state once per step, which `--check all` would report as a missing renewal.
@MainActor
enum NonisolatedClientAssembly: CogReplayAssembly {
    static var declarations: [CogReplayDeclaration] {
        [
            .source(stepCountCog), .state(doubledStepsCog), .source(labelsCog), .family(shoutedLabelCog),
            .state(remoteTotalCog),
        ]
    }
}

/// The same, with the keyed source given to `.family`, as a new user writes it first: a keyed
/// source's projection is taken there too, and written back as `.source` would.
@MainActor
enum FamilySpelledClientAssembly: CogReplayAssembly {
    static var declarations: [CogReplayDeclaration] {
        [
            .source(stepCountCog), .state(doubledStepsCog), .family(labelsCog), .family(shoutedLabelCog),
            .state(remoteTotalCog),
        ]
    }
}

@Suite struct NonisolatedReplayTests {
    /// A session of the client's ops and reads, with its async total, recorded.
    @MainActor
    static func record() async -> String {
        let clock = TestClock()
        let cogs = Cogs.forTesting(clock: clock)
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "client", clock: .virtual(clock)))
        recorder.attach(to: cogs)
        for step in 1...3 {
            cogs.step()
            cogs.rename(step, to: "row \(step)")
            _ = cogs.peek(doubledStepsCog)
            _ = cogs.peek(shoutedLabelCog[step])
            _ = cogs.peek(remoteTotalCog)
            while cogs.status.peek(remoteTotalCog).isLoading { await Task.yield() }
        }
        return recorder.traceText()
    }

    @Test func theGeneratedCallCompilesAndPassesInANonisolatedModule() async throws {
        let recording = await Self.record()
        try await CogReplayTest(
            name: "nonisolatedClient", recording: recording, check: .derived,
            turns: 1...12, skipping: ["client.cursor"]
        ).run(NonisolatedClientAssembly.self)
    }

    @Test func aKeyedSourceGivenToFamilyReplaysAsASource() async throws {
        let recording = await Self.record()
        let writable = await MainActor.run { FamilySpelledClientAssembly.declarations[2].isWritable }
        #expect(writable, "the keyed source is written back")
        try await CogReplayTest(
            name: "familySpelledClient", recording: recording, check: .derived,
            turns: 1...12, skipping: ["client.cursor"]
        ).run(FamilySpelledClientAssembly.self)
    }
}
