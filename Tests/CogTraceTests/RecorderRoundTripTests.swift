import CogTesting
import Foundation
import Testing

@testable import Cog
@testable import CogTrace
@testable import CogTraceFormat
@testable import CogTraceStore

/// Captures the runtime's own view of the graph just before each turn, to compare with what the
/// trace reconstructs.
private final class LiveKeyframes: CogProbe {
    let recorder: CogRecorder
    weak var cogs: Cogs?
    var beforeTurn: [Int: CogLiveSnapshot] = [:]

    init(recorder: CogRecorder) {
        self.recorder = recorder
    }

    func record(_ event: consuming CogProbeEvent) {
        let event = event
        if case .turnBegan(let turn) = event, let cogs { beforeTurn[turn.id] = cogs.liveSnapshot() }
        recorder.record(event)
    }
}

@Suite("Recorder round trip", .serialized, .timeLimit(.minutes(5)))
struct RecorderRoundTripTests {
    private func record(
        capacity: Int = 10_000, keyframeInterval: Int = 4
    ) async
        -> (recorder: CogRecorder, live: LiveKeyframes, cogs: Cogs, text: String)
    {
        SessionFixtures.work = ControlledWork()
        let clock = TestClock()
        let recorder = CogRecorder(
            configuration: RecorderConfiguration(
                title: "market", capacity: capacity, keyframeInterval: keyframeInterval, clock: .virtual(clock),
                redactedLabels: ["auth.*"]))
        let cogs = Cogs.forTesting(clock: clock, grace: .seconds(2))
        let live = LiveKeyframes(recorder: recorder)
        live.cogs = cogs
        cogs.probe = live
        cogs.start([MarketMechanism()])
        await runMarketSession(cogs, clock: clock)
        return (recorder, live, cogs, recorder.traceText())
    }

    @Test func aRecorderAttachedLateStartsFromTheStatesAlreadyThere() throws {
        let cogs = Cogs.forTesting()
        #expect(cogs.peek(isRichCog) == false)
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "late", clock: .virtual(TestClock())))
        recorder.attach(to: cogs)
        cogs.buy(5, of: "ACME")
        let file = try TraceFile.parse(recorder.traceText())
        let start = try file.snapshot(after: 0)
        let labels = Set(start.states.keys.compactMap { file.states[$0]?.label })
        #expect(labels.isSuperset(of: ["market.symbol", "market.position", "market.isRich"]))
        let position = try #require(file.stateID(labelled: "market.position"))
        #expect(start.states[position]?.dependencies.isEmpty == false, "dependency lists come along")
        // Versions count from the attachment, so compare what the graph holds rather than how often it changed.
        let end = try file.snapshot(after: file.turnSequences.last!)
        for (id, entry) in cogs.liveSnapshot().states {
            #expect(
                end.states[NodeID(id)]?.value?.text == entry.value.map { TraceValue.render($0).text }, "\(entry.label)")
            #expect(end.states[NodeID(id)]?.dependencies == entry.dependencies.map { NodeID($0) }, "\(entry.label)")
        }
    }

    @Test func everyTurnReadsBackAsRecorded() async throws {
        let (recorder, _, _, text) = await record()
        let file = try TraceFile.parse(text)
        #expect(file.warnings.isEmpty)
        #expect(file.trailer?.ok == true)
        #expect(file.turnCount == recorder.retainedTurnCount)
        for recorded in recorder.retainedTurns {
            #expect(try file.turn(recorded.sequence) == recorded)
        }
    }

    @Test func theSnapshotAtEveryTurnEqualsTheRuntimesOwnGraph() async throws {
        let (_, live, cogs, text) = await record()
        let file = try TraceFile.parse(text)
        let sequences = file.turnSequences
        #expect(sequences.count > 10)
        for (index, sequence) in sequences.enumerated().dropLast() {
            let next = sequences[index + 1]
            try expectSameGraph(
                try file.snapshot(after: sequence), live.beforeTurn[next.rawValue]!, at: "before turn \(next)")
        }
        try expectSameGraph(try file.snapshot(after: sequences.last!), cogs.liveSnapshot(), at: "at the end")
        // Every keyframe a walk started from agrees with the turns replayed from the one before it.
        #expect(file.keyframes.count > 3)
        #expect(file.keyframeDisagreements.isEmpty, "\(file.keyframeDisagreements)")
        #expect(file.warnings.isEmpty, "\(file.warnings)")
    }

    @Test func theSessionCoversEveryKindOfEvent() async throws {
        let (recorder, _, _, _) = await record()
        let kinds = Set(recorder.retainedTurns.flatMap { $0.events + $0.after }.map(\.kind))
        for kind in [
            "created", "write", "writeDiscarded", "recompute", "edgeAdded", "deps", "pinned", "notice",
            "offer", "reaction", "watch", "leaseAcquired", "leaseReleased", "graceScheduled", "released",
            "generationStarted", "generationAccepted", "asyncStatus", "registered", "scopeOpened",
            "leaseRenewed", "refreshResolved",
        ] {
            #expect(kinds.contains(kind), "no '\(kind)' event was recorded")
        }
    }

    /// The writer writes dependency lists, lease renewals and grace windows from their packed
    /// records without making events; over a whole session (registrations whose leases follow
    /// their edges, lists that lose producers) that must give what converting first gives.
    @Test func writingTheSessionStraightFromItsLogGivesWhatConvertingFirstGives() async throws {
        // Attached directly, so the runtime packs its events (a probe that only implements
        // `record(_:)`, like `LiveKeyframes`, hands over whole events instead).
        SessionFixtures.work = ControlledWork()
        let clock = TestClock()
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "market", clock: .virtual(clock)))
        let cogs = Cogs.forTesting(clock: clock, grace: .seconds(2))
        recorder.attach(to: cogs)
        cogs.start([MarketMechanism()])
        await runMarketSession(cogs, clock: clock)
        let portable = recorder.portable(recorder.log.startIndex..<recorder.log.endIndex, settling: false)
        var converting = TraceConverter(from: recorder.baseSnapshot)
        var writing = TraceConverter(from: recorder.baseSnapshot)
        var direct = ByteBuffer()
        writing.writeIdle(after: 0, events: portable, records: portable.records.indices, to: &direct)
        let converted = converting.convert(portable)
        var expected = ByteBuffer()
        TraceTurn.writeIdle(
            after: 0, to: &expected,
            events: { array in
                for event in converted { array.append(event) }
            })
        let (directText, expectedText) = (direct.text, expected.text)
        #expect(directText == expectedText)
        #expect(writing.snapshot == converting.snapshot)
        #expect(portable.records.contains { $0.kind == .dependencies }, "no packed dependency list to compare")
        // A list followed by its state's run is applied without noting versions twice; the
        // snapshots above must still agree.
        #expect(
            zip(portable.records, portable.records.dropFirst()).contains { list, run in
                list.kind == .dependencies && run.kind == .recompute && list.state == run.state
            }, "no dependency list followed by its state's run")
        let kinds = Set(converted.map(\.kind))
        for kind in [
            "edgeAdded", "edgeRemoved", "deps", "leaseAcquired", "leaseReleased", "leaseRenewed", "graceScheduled",
        ] {
            #expect(kinds.contains(kind), "the session has no '\(kind)' event to compare")
        }
    }

    @Test func redactedLabelsNeverReachTheFile() async throws {
        let (_, _, _, text) = await record()
        #expect(!text.contains("s3cret"))
        #expect(!text.contains("n3w-secret"))
        #expect(text.contains("\"redacted\":true"))
    }

    @Test func redactedLabelsNeverReachAStreamedFileEither() async throws {
        SessionFixtures.work = ControlledWork()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "redacted-\(UUID().uuidString).cogtrace")
        defer { try? FileManager.default.removeItem(at: url) }
        let clock = TestClock()
        let recorder = CogRecorder(
            configuration: RecorderConfiguration(
                title: "market", clock: .virtual(clock), redactedLabels: ["auth.*"]))
        let cogs = Cogs.forTesting(clock: clock, grace: .seconds(2))
        recorder.attach(to: cogs)
        try recorder.startStreaming(to: url)
        cogs.start([MarketMechanism()])
        await runMarketSession(cogs, clock: clock)
        recorder.finishStreaming()
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(!text.contains("s3cret") && !text.contains("n3w-secret"))
        #expect(text.contains("\"redacted\":true"))
    }

    @Test func aVirtualClockRecordsTheSameBytesTwice() async {
        let first = await record().text
        let second = await record().text
        #expect(first == second)
    }

    @Test func aRingFileStartsWithAKeyframeOfItsOldestRetainedTurn() async throws {
        let (recorder, live, _, text) = await record(capacity: 5, keyframeInterval: 2)
        let file = try TraceFile.parse(text)
        #expect(file.turnCount == 5)
        #expect(file.trailer?.evicted == recorder.recordedTurnCount - 5)
        let oldest = file.turnSequences.first!
        try expectSameGraph(
            try file.snapshot(after: oldest - 1), live.beforeTurn[oldest.rawValue]!, at: "the ring's start")
    }

    private func expectSameGraph(_ recorded: GraphSnapshot, _ live: CogLiveSnapshot, at moment: String) throws {
        #expect(Set(recorded.states.keys) == Set(live.states.keys.map { NodeID($0) }), "states differ \(moment)")
        for (id, entry) in live.states {
            guard let state = recorded.states[NodeID(id)] else { continue }
            #expect(state.version == entry.version, "\(entry.label) version \(moment)")
            #expect(
                state.dependencies == entry.dependencies.map { NodeID($0) }, "\(entry.label) dependencies \(moment)")
            #expect(state.isPinned == entry.isPinned, "\(entry.label) pin \(moment)")
            if !state.value.map(\.isRedacted)!, let value = entry.value {
                #expect(state.value?.text == TraceValue.render(value).text, "\(entry.label) value \(moment)")
            }
            if let status = entry.asyncStatus {
                #expect(state.async?.kind.rawValue == status.kind, "\(entry.label) async kind \(moment)")
                #expect(state.async?.isLoading == status.isLoading, "\(entry.label) loading \(moment)")
            }
        }
        for (id, entry) in live.registrations {
            #expect(
                recorded.registrations[NodeID(id)]?.dependencies == entry.dependencies.map { NodeID($0) },
                "\(entry.label) \(moment)")
        }
    }
}
