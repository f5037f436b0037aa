import Cog
import CogTesting
import Foundation
import Testing

@testable import CogTrace
@testable import CogTraceFormat
@testable import CogTraceStore

private let _tickCog = Cog<Int>.Manual(name: "bounds.tick") { 0 }
private let parityCog = Cog<Bool>(name: "bounds.isEven") { c in c[_tickCog] % 2 == 0 }
private let _shelfCogs = (0..<10).map { index in Cog<Int>.Manual(name: "bounds.shelf\(index)") { 0 } }
private let rowCogs = CogBox<Int, Int>(name: "bounds.row") { c, key in c[_tickCog] + key }

/// A temporary file path unique to one test.
private func temporaryTrace(_ name: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("coginspector-\(name)-\(getpid()).cogtrace")
}

/// A recorder on a virtual clock attached to a fresh runtime, so a trace's times repeat.
@MainActor
private func recordingOnAVirtualClock(_ title: String) -> (CogRecorder, Cogs) {
    let recorder = CogRecorder(configuration: RecorderConfiguration(title: title, clock: .virtual(TestClock())))
    let cogs = Cogs.forTesting()
    recorder.attach(to: cogs)
    return (recorder, cogs)
}

/// Checks that the finished stream at `url` opens cleanly and agrees with `recorder`'s ring on
/// the state table, on turn `turn`, and on the graph after it.
@MainActor
private func expectStreamAgreesWithRing(_ url: URL, _ recorder: CogRecorder, at turn: TurnNumber) throws {
    let streamed = try TraceFile.load(contentsOf: url)
    let ring = try TraceFile.parse(recorder.traceText())
    #expect(streamed.warnings.isEmpty)
    #expect(streamed.states == ring.states)
    #expect(try streamed.turn(turn) == ring.turn(turn))
    #expect(try streamed.snapshot(after: turn) == ring.snapshot(after: turn))
}

@Suite("Streaming and bounds", .serialized)
struct StreamingAndBoundsTests {
    @Test func aTurnPastItsEventBudgetKeepsTheFirstEventsAndCountsTheRest() throws {
        let recorder = CogRecorder(
            configuration: RecorderConfiguration(
                title: "budget", clock: .virtual(TestClock()), maxEventsPerTurn: 3))
        let cogs = Cogs.forTesting()
        recorder.attach(to: cogs)
        for shelf in _shelfCogs { _ = cogs.peek(shelf) }
        // Ten writes in one turn: the first three are kept, seven dropped and counted.
        cogs.turn("restock") { c in
            for (index, shelf) in _shelfCogs.enumerated() { c[shelf] = index + 1 }
        }
        // Between turns nothing is dropped, and the next turn has a budget of its own.
        cogs.turn("sell") { c in c[_shelfCogs[0]] = 0 }
        #expect(recorder.droppedEventCount == 7)
        let file = try TraceFile.parse(recorder.traceText())
        #expect(file.trailer?.dropped == 7)
        let restock = try file.turn(file.turnSequences[0])
        #expect(restock.events.count == 3)
        #expect(restock.events.allSatisfy { if case .write = $0 { true } else { false } })
        #expect(try file.turn(file.turnSequences[1]).events.count == 1)
    }

    @Test func streamingWritesEachTurnAsItEndsWithKeyframes() throws {
        let url = temporaryTrace("stream")
        defer { try? FileManager.default.removeItem(at: url) }
        let recorder = CogRecorder(
            configuration: RecorderConfiguration(
                title: "stream", keyframeInterval: 10, clock: .virtual(TestClock())))
        let cogs = Cogs.forTesting()
        recorder.attach(to: cogs)
        try recorder.startStreaming(to: url)
        _ = cogs[parityCog]
        for tick in 1...25 { cogs.turn("tick") { c in c[_tickCog] = tick } }

        // Written on the writer's thread a moment after each turn; waited for here.
        recorder.flushStream()
        let unfinished = try TraceFile.load(contentsOf: url)
        #expect(unfinished.turnCount == 25)
        #expect(unfinished.trailer == nil)
        #expect(unfinished.keyframes.map(\.before) == [1, 11, 21])

        recorder.finishStreaming()
        let finished = try TraceFile.load(contentsOf: url)
        #expect(finished.trailer?.ok == true)
        #expect(finished.warnings.isEmpty)
        #expect(
            try finished.snapshot(after: 25).states[finished.stateID(labelled: "bounds.tick")!]?.value?.text == "25")
        // Each keyframe agrees with the turns streamed from the one before it.
        for sequence in finished.turnSequences { _ = try finished.snapshot(after: sequence) }
        #expect(finished.keyframeDisagreements.isEmpty, "\(finished.keyframeDisagreements)")
    }

    /// A path that already holds a file is written over: a longer file left there (an older
    /// recording) loses every byte of it, and an empty one (made by `mktemp`) is simply used.
    @Test(arguments: [String(repeating: "stale bytes of an older recording\n", count: 5_000), ""])
    func aStreamWritesOverAFileAlreadyThere(_ before: String) throws {
        let url = temporaryTrace("existing-\(before.count)")
        defer { try? FileManager.default.removeItem(at: url) }
        try before.write(to: url, atomically: false, encoding: .utf8)
        let (recorder, cogs) = recordingOnAVirtualClock("existing")
        try recorder.startStreaming(to: url)
        _ = cogs[parityCog]
        for tick in 1...3 { cogs.turn("tick") { c in c[_tickCog] = tick } }
        recorder.finishStreaming()
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(!text.contains("stale"))
        #expect(text.utf8.count < before.utf8.count || before.isEmpty)
        let finished = try TraceFile.load(contentsOf: url)
        #expect(finished.warnings.isEmpty)
        #expect(finished.turnCount == 3)
        #expect(finished.trailer?.ok == true)
    }

    /// A long stretch between turns goes to the writer in parts while it lasts, yet the file
    /// holds what one hand-over at its end would have written: one idle record per stretch,
    /// and the states it created before it.
    @Test func aLongIdleStretchStreamsInPartsAndWritesWhatTheRingWrites() throws {
        let url = temporaryTrace("idle-parts")
        defer { try? FileManager.default.removeItem(at: url) }
        let (recorder, cogs) = recordingOnAVirtualClock("parts")
        try recorder.startStreaming(to: url)
        // Each first read creates a state and records its dependencies and first run: several
        // parts' worth of events, with states appearing in every part.
        for key in 0..<1_500 { _ = cogs.peek(rowCogs[key]) }
        #expect(recorder.idleEvents.count > 2 * TraceStream.partSize)
        cogs.turn("tick") { c in c[_tickCog] = 1 }
        for key in 0..<2_000 { _ = cogs.peek(rowCogs[key]) }
        recorder.finishStreaming()

        try expectStreamAgreesWithRing(url, recorder, at: 1)
        func lines(_ text: String, ofType type: String) -> [Substring] {
            text.split(separator: "\n").filter { $0.hasPrefix("{\"type\":\"\(type)\"") }
        }
        let streamedText = try String(contentsOf: url, encoding: .utf8)
        let ringText = recorder.traceText()
        #expect(lines(streamedText, ofType: "idle").count == 2)
        // The ring folds what came before its oldest turn into a keyframe; the stretch after
        // the turn is in both, and must be the same bytes.
        #expect(lines(streamedText, ofType: "idle").last == lines(ringText, ofType: "idle").last)
        #expect(lines(ringText, ofType: "idle").last?.hasPrefix("{\"type\":\"idle\",\"after\":1,") == true)
        // Every state's record comes before the first event that names it.
        let firstIdle = try #require(streamedText.range(of: "{\"type\":\"idle\""))
        #expect(streamedText[..<firstIdle.lowerBound].components(separatedBy: "\"type\":\"state\"").count - 1 == 1_501)
    }

    /// A stretch of a few parts is small enough that its events are copied into the lines
    /// rather than written from the encoder's buffer; the bytes are the ring's either way.
    @Test func aShortStretchInPartsWritesWhatTheRingWrites() throws {
        let url = temporaryTrace("short-parts")
        defer { try? FileManager.default.removeItem(at: url) }
        let (recorder, cogs) = recordingOnAVirtualClock("short parts")
        try recorder.startStreaming(to: url)
        cogs.turn("tick") { c in c[_tickCog] = 1 }
        for key in 0..<80 { _ = cogs.peek(rowCogs[key]) }
        let stretch = recorder.idleEvents.count
        #expect(stretch > TraceStream.partSize)
        cogs.turn("tick") { c in c[_tickCog] = 2 }
        recorder.finishStreaming()

        let streamedText = try String(contentsOf: url, encoding: .utf8)
        let idleLines = streamedText.split(separator: "\n").filter { $0.hasPrefix("{\"type\":\"idle\",\"after\":1,") }
        let ringIdle = recorder.traceText().split(separator: "\n").filter {
            $0.hasPrefix("{\"type\":\"idle\",\"after\":1,")
        }
        #expect(idleLines.count == 1)
        #expect(idleLines == ringIdle)
        #expect(try #require(idleLines.first).utf8.count < StreamEncoder.directSize)
        try expectStreamAgreesWithRing(url, recorder, at: 2)
    }

    /// A long turn goes to the writer in parts while it runs, yet the file holds what one
    /// hand-over at its end would have written: the turn's record as the ring writes it, after
    /// the idle stretch it closed and the states it created.
    /// The runtime retains its probe on every settle: a weak reference to the recorder anywhere
    /// moves its reference count into a side table, and every one of those retains takes the
    /// slow path (0.17x of a streamed diamond run, where it had crept in). One weak count is the
    /// object's own.
    @Test func aStreamingRecorderIsNeverReferencedWeakly() throws {
        let url = temporaryTrace("unweakened")
        defer { try? FileManager.default.removeItem(at: url) }
        let (recorder, cogs) = recordingOnAVirtualClock("unweakened")
        try recorder.startStreaming(to: url)
        _ = cogs[parityCog]
        for tick in 1...3 { cogs.turn("tick \(tick)") { c in c[_tickCog] = tick } }
        recorder.noteFailure(test: "unweakened", kind: .expectation, message: "noted")
        #expect(_getWeakRetainCount(recorder) == 1)
        recorder.flushStream()
        recorder.finishStreaming()
        #expect(_getWeakRetainCount(recorder) == 1)
        #expect(recorder.faults.isEmpty)
    }

    @Test func aLongTurnStreamsInPartsAndWritesWhatTheRingWrites() throws {
        let url = temporaryTrace("turn-parts")
        defer { try? FileManager.default.removeItem(at: url) }
        let (recorder, cogs) = recordingOnAVirtualClock("turn parts")
        try recorder.startStreaming(to: url)
        _ = cogs.peek(rowCogs[0])
        var eventsInTurn = 0
        cogs.turn("fill") { c in
            c[_tickCog] = 1
            // Each read creates a state: several parts' worth of events, states in every part.
            for key in 0..<1_500 { _ = c[rowCogs[key]] }
            eventsInTurn = recorder.turnEventsSoFar?.count ?? 0
        }
        #expect(eventsInTurn > 2 * TraceStream.partSize)
        cogs.turn("tick") { c in c[_tickCog] = 2 }
        recorder.finishStreaming()

        try expectStreamAgreesWithRing(url, recorder, at: 1)
        try expectStreamAgreesWithRing(url, recorder, at: 2)
        let streamedLines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        let ringLines = recorder.traceText().split(separator: "\n")
        func records(_ lines: [Substring], ofType type: String) -> [Substring] {
            lines.filter { $0.hasPrefix("{\"type\":\"\(type)\"") }
        }
        #expect(records(streamedLines, ofType: "turn").count == 2)
        #expect(records(streamedLines, ofType: "turn") == records(ringLines, ofType: "turn"))
        // The stretch before the turn, then every state, then the turn that created them.
        let firstTurn = try #require(streamedLines.firstIndex { $0.hasPrefix("{\"type\":\"turn\"") })
        let before = Array(streamedLines[..<firstTurn])
        #expect(records(before, ofType: "idle").count == 1)
        #expect(records(before, ofType: "state").count == records(streamedLines, ofType: "state").count)
        #expect(records(before, ofType: "state").count == 1_501)
    }

    /// Streaming that starts after some work between turns opens with that work in its
    /// keyframe, and does not replay it again after.
    @Test func aStreamStartedBetweenTurnsDoesNotReplayWhatItsKeyframeHolds() throws {
        let url = temporaryTrace("late-stream")
        defer { try? FileManager.default.removeItem(at: url) }
        let (recorder, cogs) = recordingOnAVirtualClock("late")
        cogs.turn("tick") { c in c[_tickCog] = 1 }
        for key in 0..<5 { _ = cogs.peek(rowCogs[key]) }
        try recorder.startStreaming(to: url)
        cogs.turn("tick") { c in c[_tickCog] = 2 }
        _ = cogs.peek(rowCogs[0])
        recorder.finishStreaming()
        try expectStreamAgreesWithRing(url, recorder, at: 2)
        let streamed = try TraceFile.load(contentsOf: url)
        let ring = try TraceFile.parse(recorder.traceText())
        let row = try #require(ring.stateID(labelled: "bounds.row[0]"))
        #expect(try streamed.snapshot(after: 2).states[row]?.version == ring.snapshot(after: 2).states[row]?.version)
    }

    /// The writer's thread writes each record as soon as it gets to it: nothing waits for a
    /// flush, a later turn or the end of the stream.
    @Test func recordsReachTheFileWithNobodyWaitingForThem() throws {
        let url = temporaryTrace("background")
        defer { try? FileManager.default.removeItem(at: url) }
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "background"))
        let cogs = Cogs.forTesting()
        recorder.attach(to: cogs)
        try recorder.startStreaming(to: url)
        for tick in 1...12 { cogs.turn("tick") { c in c[_tickCog] = tick } }
        var seen = 0
        for _ in 0..<1_000 where seen < 12 {
            seen = (try? TraceFile.load(contentsOf: url))?.turnCount ?? 0
            usleep(10_000)
        }
        #expect(seen == 12)
        recorder.finishStreaming()
        #expect(try TraceFile.load(contentsOf: url).trailer?.turns == 12)
    }

    @Test func aCrashLosesAtMostTheTurnInFlight() async throws {
        let url = temporaryTrace("crash")
        defer { try? FileManager.default.removeItem(at: url) }
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let url = FileManager.default.temporaryDirectory
                    .appendingPathComponent("coginspector-crash-\(getppid()).cogtrace")
                let recorder = CogRecorder(
                    configuration: RecorderConfiguration(title: "crash", streamWriting: .immediate))
                let cogs = Cogs.forTesting()
                recorder.attach(to: cogs)
                try! recorder.startStreaming(to: url)
                for tick in 1...7 { cogs.turn("tick") { c in c[_tickCog] = tick } }
                cogs.turn("crash") { _ in fatalError("the app crashed mid-turn") }
            }
        }
        let crashed = FileManager.default.temporaryDirectory.appendingPathComponent(
            "coginspector-crash-\(getpid()).cogtrace")
        defer { try? FileManager.default.removeItem(at: crashed) }
        let file = try TraceFile.load(contentsOf: crashed)
        #expect(file.turnCount == 7)
        #expect(file.warnings.contains { $0.message.hasPrefix("no trailer") })
        #expect(try file.snapshot(after: 7).states[file.stateID(labelled: "bounds.tick")!]?.value?.text == "7")
    }

    /// The ring keeps exactly its capacity however long the run. A short run here; the million-
    /// and ten-million-turn runs, with memory sampled, are `cog-bench`'s soak, which fails on the
    /// same counts.
    @Test func aLongRunInASmallRingKeepsExactlyTheRing() throws {
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "bounded", capacity: 1_000))
        let cogs = Cogs.forTesting()
        recorder.attach(to: cogs)
        _ = cogs[parityCog]
        for tick in 1...30_000 {
            cogs.turn("tick") { c in c[_tickCog] = tick }
        }
        #expect(recorder.retainedTurnCount == 1_000)
        #expect(recorder.evictedTurnCount == 29_000)
        let file = try TraceFile.parse(recorder.traceText())
        #expect(file.turnCount == 1_000)
        #expect(file.trailer?.evicted == 29_000)
        #expect(file.turnSequences.first == 29_001)
        #expect(
            try file.snapshot(after: 30_000).states[file.stateID(labelled: "bounds.tick")!]?.value?.text == "30000")
    }
}
