import Cog
import CogTesting
import CogTrace
import CogTraceStore
import Observation
import Testing

@Observable final class ReaderProfile {
    var givenName = "Ada"
    var familyName = "Lovelace"
}

/// `c.track`: an external `@Observable` property as a graph input, recomputing what read it
/// and recorded in a trace as writes to a source in turns of their own.
@Suite("External inputs through c.track", .timeLimit(.minutes(5)))
struct ExternalInputTests {
    private func settle(_ condition: () -> Bool) async {
        for _ in 0..<5_000 where !condition() { await Task.yield() }
    }

    @Test func aTrackedPropertyRecomputesWhatReadItAndIsRecorded() async throws {
        let profile = ReaderProfile()
        let greetingCog = Cog<String>(name: "external.greeting") { c in
            "Hello, \(c.track(profile, \.givenName, name: "profile.givenName"))"
        }
        let cogs = Cogs.forTesting()
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "external"))
        recorder.attach(to: cogs)
        #expect(cogs[greetingCog] == "Hello, Ada")
        profile.givenName = "Grace"
        await settle { cogs.peek(greetingCog) == "Hello, Grace" }
        #expect(cogs.peek(greetingCog) == "Hello, Grace")
        profile.familyName = "Hopper"  // not tracked: no turn
        profile.givenName = "Edsger"  // tracking was armed again after the first change
        await settle { cogs.peek(greetingCog) == "Hello, Edsger" }
        #expect(cogs.peek(greetingCog) == "Hello, Edsger")

        let trace = try TraceFile.parse(recorder.traceText())
        let turns = try trace.turnSequences.map { try trace.turn($0) }
        let inputs = turns.filter { $0.origin.rawValue == "externalChange" }
        #expect(inputs.map(\.name) == ["c.track(profile.givenName)", "c.track(profile.givenName)"])
        let source = try #require(trace.stateID(labelled: "c.track(profile.givenName)"))
        let written = inputs.flatMap(\.events).compactMap { event -> String? in
            if case .write(source, _, let new) = event { new.text } else { nil }
        }
        #expect(written == ["Grace", "Edsger"])
    }

    @Test func oneModelPropertyIsLinkedOncePerRuntime() {
        let profile = ReaderProfile()
        let firstCog = Cog<Int>(name: "external.first") { c in c.track(profile, \.givenName).count }
        let secondCog = Cog<String>(name: "external.second") { c in c.track(profile, \.givenName).uppercased() }
        let cogs = Cogs.forTesting()
        #expect(cogs[firstCog] == 3)
        #expect(cogs[secondCog] == "ADA")
        #expect(cogs.liveStateCount == 3, "two readers and one hidden source")
        // Without a name, the input is named by its model's type and, where the platform cannot
        // name a key path, where it was first tracked: the same in every run.
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "names"))
        recorder.attach(to: cogs)
        let labels = (try? TraceFile.parse(recorder.traceText()))?.states.values.map(\.label) ?? []
        #expect(labels.contains { $0.hasPrefix("c.track(ReaderProfile") && !$0.contains("0x") })
    }
}
