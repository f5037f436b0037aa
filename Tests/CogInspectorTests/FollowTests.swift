import CogInspectorExport
import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

@testable import CogInspector

/// A session following a file being written: the cursor rides the newest turn until the person
/// travels, watches report exactly the changes the finished recording shows, and answers over
/// what arrived agree with the same questions asked of the whole file.
@Suite("Following at the session")
struct FollowTests {
    private static let recordings = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Recordings")

    /// A recording written out a few lines at a time into a temporary file, with a session
    /// following it.
    private final class GrowingRecording {
        let whole: TraceFile
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "follow-session-\(UUID().uuidString).cogtrace")
        private let lines: [ArraySlice<UInt8>]
        private var written = 0
        private let handle: FileHandle
        private(set) var session: InspectorSession!

        init(_ name: String, openingLines: Int) throws {
            let source = FollowTests.recordings.appendingPathComponent("\(name).cogtrace")
            whole = try TraceFile.load(contentsOf: source)
            lines = [UInt8](try Data(contentsOf: source)).split(separator: 0x0A, omittingEmptySubsequences: false)
                .dropLast()
            try Data().write(to: url)
            handle = try FileHandle(forWritingTo: url)
            try write(openingLines)
            let follower = try #require(try TraceFollower.start(url))
            session = InspectorSession(trace: follower.trace, source: url.path, catalog: .standard)
            session.follow(follower)
        }

        var isComplete: Bool { written == lines.count }

        /// Writes the next `count` lines; the update the session then finds.
        @discardableResult
        func write(_ count: Int) throws -> FollowUpdate? {
            let end = min(lines.count, written + count)
            for line in lines[written..<end] { try handle.write(contentsOf: Data(line + [0x0A])) }
            written = end
            return session?.pollFollowed()
        }

        /// Writes `text` as it is, as a broken writer might; the update the session then finds.
        func writeRaw(_ text: String) throws -> FollowUpdate? {
            try handle.write(contentsOf: Data(text.utf8))
            return session.pollFollowed()
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    @Test func theCursorRidesTheNewestTurnUntilThePersonTravels() throws {
        let recording = try GrowingRecording("tour", openingLines: 40)
        let session = recording.session!
        #expect(session.cursor == session.turns.last ?? 0)
        try recording.write(6)
        #expect(session.cursor == session.turns.last)
        let before = session.turns.count
        _ = try session.execute("back 2")
        let parked = session.cursor
        let update = try #require(try recording.write(8))
        #expect(!update.movedCursor)
        #expect(session.cursor == parked)
        let arrived = session.turns.count - before
        #expect(arrived > 0)
        let notice = try #require(session.takeArrivalNotice())
        #expect(
            notice
                == .message(
                    "\(arrived) new turns (\(session.turns[before])..\(session.turns.last!)); 'last' goes to the newest"
                ))
        #expect(session.takeArrivalNotice() == nil)
        _ = try session.execute("last")
        try recording.write(6)
        #expect(session.cursor == session.turns.last)
    }

    @Test func followReopensAFileARestartedAppWroteOver() throws {
        let recording = try GrowingRecording("tour", openingLines: 30)
        let session = recording.session!
        _ = try session.execute("watch weather.currentZip")
        // The app restarts: the file is truncated and another recording written from the start.
        let switching = try Data(contentsOf: Self.recordings.appendingPathComponent("switching.cogtrace"))
        let unfinished = switching.split(separator: 0x0A).dropLast().map { Data($0) + Data([0x0A]) }
        try unfinished.reduce(Data(), +).write(to: recording.url)
        let update = try #require(session.pollFollowed())
        #expect(update.ended == .fileChanged(.rewritten))
        let reopened = try #require(try session.execute("follow"))
        let whole = try TraceFile.load(
            contentsOf: Self.recordings.appendingPathComponent("switching.cogtrace"))
        #expect(session.turns == whole.turnSequences, "the new recording, not the old one's turns")
        #expect(session.isFollowing)
        #expect(session.cursor == whole.turnSequences.last)
        let messages = reopened.report.compactMap { report -> String? in
            if case .message(let text) = report { return text }
            return nil
        }
        #expect(messages.first?.hasPrefix("reopened '\(recording.url.path)': a new recording") == true, "\(messages)")
        #expect(session.watches.map(\.text) == ["weather.currentZip"], "the watch carries over")
        let zip = try #require(try session.execute("get weather.currentZip"))
        #expect(!zip.report.isEmpty)
    }

    @Test func turnsTheCursorAlreadyShowsAreNotAnnouncedAgain() throws {
        let recording = try GrowingRecording("tour", openingLines: 40)
        let session = recording.session!
        _ = try session.execute("back 3")
        try recording.write(10)
        _ = try session.execute("last")
        #expect(session.takeArrivalNotice() == nil, "'last' showed the turns that arrived")
        _ = try session.execute("back 1")
        let parked = session.cursor
        try recording.write(10)
        _ = try session.execute("step")
        let notice = try #require(session.takeArrivalNotice())
        let after = try #require(session.turns.first { $0 > session.cursor })
        #expect(session.cursor > parked)
        #expect(
            notice
                == .message(
                    "\(session.turns.filter { $0 > session.cursor }.count) new turns (\(after)..\(session.turns.last!)); 'last' goes to the newest"
                )
                || notice == .message("1 new turn (\(after)); 'last' goes to the newest"))
    }

    @Test(arguments: ["tour", "switching", "map"])
    func aWatchReportsEveryChangeTheFinishedRecordingShows(_ name: String) throws {
        let recording = try GrowingRecording(name, openingLines: 3)
        let session = recording.session!
        _ = try session.execute("watch weather.isNiceHere")
        _ = try session.execute("watch weather.currentZip")
        var reported: [String: [TurnNumber]] = [:]
        while !recording.isComplete {
            for change in try recording.write(3)?.watchChanges ?? [] {
                reported[change.watch, default: []].append(change.turn.turn)
            }
        }
        #expect(session.followEnd == .finished)
        for label in ["weather.isNiceHere", "weather.currentZip"] {
            let id = try #require(recording.whole.stateID(labelled: label))
            var expected: [TurnNumber] = []
            var previous: TraceValue??
            for turn in recording.whole.turnSequences {
                let value = try recording.whole.snapshot(after: turn).states[id].map(\.value)
                if value != previous, !(previous == nil && value == nil) { expected.append(turn) }
                previous = value
            }
            #expect(Set(reported[label] ?? []) == Set(expected), "\(label) in \(name)")
            #expect(!expected.isEmpty)
        }
    }

    @Test func answersOverWhatArrivedMatchTheWholeFile() throws {
        let recording = try GrowingRecording("switching", openingLines: 20)
        let session = recording.session!
        // Built early, the index then grows with every piece.
        _ = try session.execute("history weather.isNiceHere")
        while !recording.isComplete { try recording.write(4) }
        let whole = InspectorSession(trace: recording.whole, source: "whole", catalog: .standard)
        for sequence in recording.whole.turnSequences.suffix(12) {
            try session.move(to: sequence)
            try whole.move(to: sequence)
            for command in [
                "why weather.isNiceHere", "history weather.isNice[94105]", "sql SELECT count(*) FROM recomputes",
            ] {
                #expect(try session.execute(command) == (try whole.execute(command)), "\(command) at \(sequence)")
            }
        }
    }

    @Test func aMalformedArrivingLineStopsFollowingAndKeepsWhatWasRead() throws {
        let recording = try GrowingRecording("tour", openingLines: 40)
        let session = recording.session!
        let turns = session.turns
        let update = try #require(try recording.writeRaw("{\"type\":\"turn\",\"seq\":\"x\"}\n"))
        guard case .malformed(let reason) = update.ended else {
            Issue.record("following did not stop: \(update)")
            return
        }
        #expect(reason.contains("turn record needs 'seq'"))
        #expect(session.followEnd == update.ended)
        #expect(session.turns == turns)
        #expect(session.pollFollowed() == nil)
        #expect(try session.execute("where") != nil)
    }

    @Test func untilEndsFollowingAtTheFirstTurnWhereItHolds() throws {
        let recording = try GrowingRecording("switching", openingLines: 3)
        let session = recording.session!
        try session.followUntil(#"weather.currentZip == "98101""#)
        var ended: FollowEnd?
        while !recording.isComplete, ended == nil { ended = try recording.write(2)?.ended }
        let zip = try #require(recording.whole.stateID(labelled: "weather.currentZip"))
        let first = try recording.whole.turnSequences.first { turn in
            try recording.whole.snapshot(after: turn).states[zip]?.value?.json == .string("98101")
        }
        #expect(ended == .untilMet(try #require(first)))
    }

    @Test func watchingNeedsAFollowedTraceAndWaitsForUnknownStates() throws {
        let plain = InspectorSession(
            trace: try TraceFile.load(contentsOf: Self.recordings.appendingPathComponent("tour.cogtrace")),
            source: "tour")
        #expect(throws: InspectorError.self) { try plain.execute("watch weather.isNiceHere") }
        let recording = try GrowingRecording("tour", openingLines: 2)
        let session = recording.session!
        let answer = try #require(try session.execute("watch weather.forecast[94105]"))
        #expect(
            answer.report.contains {
                if case .message(let text) = $0 { text.contains("watching for it") } else { false }
            })
        var changes: [WatchChange] = []
        while !recording.isComplete { changes += try recording.write(5)?.watchChanges ?? [] }
        #expect(!changes.isEmpty)
        #expect(changes.allSatisfy { $0.watch == "weather.forecast[94105]" })
        #expect(
            try session.execute("unwatch weather.forecast[94105]")?.report == [
                .message("stopped watching weather.forecast[94105]")
            ])
        #expect(throws: InspectorError.self) { try session.execute("unwatch weather.nothing") }
    }
}
