import Foundation
import Testing

@testable import CogTraceFormat
@testable import CogTraceStore

/// A trace read while it is written must end up exactly as the same file read whole: the same
/// turns, states, failures and graphs, and an event index that grew to the one built at once.
@Suite("Following a trace as it is written")
struct TraceFollowerTests {
    private static let recordings = RecordingFiles.folder

    /// A file of its own in the temporary directory, removed at the end.
    private final class TemporaryFile {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "follow-test-\(UUID().uuidString).cogtrace")
        private var handle: FileHandle?

        init(_ bytes: [UInt8] = []) throws {
            try Data(bytes).write(to: url)
            handle = try FileHandle(forWritingTo: url)
            try handle?.seekToEnd()
        }

        func append(_ bytes: some Sequence<UInt8>) throws { try handle?.write(contentsOf: Data(bytes)) }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// The index's view: each subject's events as turn, idle flag, place and JSON.
    private func view(of index: TraceEventIndex) throws -> [NodeID: [String]] {
        try index.bySubject.mapValues { locations in
            try locations.map { location in
                let event = try index.event(at: location)
                return "\(index.turn(of: location)) \(location.isIdle) \(location.position) "
                    + (event?.jsonValue.jsonText ?? "?")
            }
        }
    }

    /// Cuts `bytes` into pieces of pseudo-random sizes (many mid-line), the same on every run.
    private func pieces(of bytes: [UInt8], seed: UInt64) -> [ArraySlice<UInt8>] {
        var state = seed
        var cuts: [ArraySlice<UInt8>] = []
        var start = 0
        while start < bytes.count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 33) % 900 + 1
            cuts.append(bytes[start..<min(bytes.count, start + length)])
            start += length
        }
        return cuts
    }

    @Test(arguments: ["tour", "map", "screens", "stale-refresh", "switching", "heat-advisory", "service-outage"])
    func aRecordingReadPieceByPieceEndsAsTheWholeFile(_ name: String) throws {
        let whole = try TraceFile.load(contentsOf: Self.recordings.appendingPathComponent("\(name).cogtrace"))
        let bytes = whole.bytes.array
        let file = try TemporaryFile()
        var follower: TraceFollower?
        var index: TraceEventIndex?
        var live: LiveGraph?
        var reachedTrailer = false
        for piece in pieces(of: bytes, seed: UInt64(name.utf8.count)) {
            try file.append(piece)
            guard let following = follower else {
                follower = try TraceFollower.start(file.url)
                continue
            }
            let change = try following.poll()
            if case .grew(let growth) = change { reachedTrailer = reachedTrailer || growth.reachedTrailer }
            if index == nil, following.trace.turnCount > 0 {
                index = TraceEventIndex(trace: following.trace)
                live = try LiveGraph(trace: following.trace)
            } else {
                index?.extend()
                try live?.advance(in: following.trace) { _, _ in }
            }
            // The live graph is always the graph after the newest turn, as far as it has arrived.
            if let live, let newest = following.trace.turnSequences.last {
                #expect(live.graph == (try following.trace.snapshot(after: newest)), "after turn \(newest)")
            }
        }
        let followed = try #require(follower).trace
        #expect(reachedTrailer)
        #expect(followed.turnSequences == whole.turnSequences)
        #expect(followed.states == whole.states)
        #expect(followed.failures == whole.failures)
        #expect(followed.trailer == whole.trailer)
        #expect(followed.warnings == whole.warnings)
        #expect(followed.keyframeTurns == whole.keyframeTurns)
        for sequence in whole.turnSequences {
            #expect(try followed.turn(sequence) == (try whole.turn(sequence)))
            #expect(try followed.snapshot(after: sequence) == (try whole.snapshot(after: sequence)))
        }
        let grown = try #require(index)
        let built = try #require(TraceEventIndex(trace: whole))
        #expect(try view(of: grown) == (try view(of: built)))
        #expect(grown.registrationEvents.map(\.event) == built.registrationEvents.map(\.event))
    }

    private static let header =
        #"{"type":"header","format":"cogtrace","version":"1.1","minReader":"1.0","producer":"test","run":"r","title":"t","clock":"virtual","mode":"stream","capacity":10,"keyframeEvery":100}"#
    private static func turn(_ sequence: Int) -> String {
        #"{"type":"turn","seq":\#(sequence),"name":"t\#(sequence)","origin":"op","cause":null,"start":0,"duration":0,"events":[]}"#
    }

    @Test func nothingToFollowUntilTheHeaderLineIsComplete() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)")
        #expect(try TraceFollower.start(missing) == nil)
        let file = try TemporaryFile(Array(Self.header.utf8.prefix(40)))
        #expect(try TraceFollower.start(file.url) == nil)
        try file.append(Self.header.utf8.dropFirst(40))
        #expect(try TraceFollower.start(file.url) == nil)
        try file.append("\n".utf8)
        let follower = try #require(try TraceFollower.start(file.url))
        #expect(follower.trace.turnCount == 0)
        #expect(follower.trace.warnings.isEmpty)
    }

    @Test func aPartialLastLineWaitsForItsEnd() throws {
        let file = try TemporaryFile(Array((Self.header + "\n" + Self.turn(1) + "\n").utf8))
        let follower = try #require(try TraceFollower.start(file.url))
        let second = Array(Self.turn(2).utf8)
        try file.append(second.prefix(30))
        #expect(try follower.poll() == .none)
        #expect(follower.trace.turnSequences == [1])
        try file.append(second.dropFirst(30) + [0x0A])
        guard case .grew(let growth) = try follower.poll() else {
            Issue.record("the completed line was not read")
            return
        }
        #expect(growth.newTurns == 1..<2)
        #expect(follower.trace.turnSequences == [1, 2])
    }

    @Test func truncationReplacementAndRemovalStopFollowing() throws {
        let text = Array((Self.header + "\n" + Self.turn(1) + "\n").utf8)
        let truncated = try TemporaryFile(text)
        let first = try #require(try TraceFollower.start(truncated.url))
        #expect(truncate(truncated.url.path, 10) == 0)
        #expect(try first.poll() == .truncated)
        #expect(try first.poll() == .truncated)

        // Truncated and written again past the old length: the first line tells it apart.
        let rewritten = try TemporaryFile(text)
        let second = try #require(try TraceFollower.start(rewritten.url))
        let other = Self.header.replacingOccurrences(of: #""run":"r""#, with: #""run":"s""#)
        try Data((other + "\n" + Self.turn(1) + "\n" + Self.turn(2) + "\n").utf8).write(to: rewritten.url)
        #expect(try second.poll() == .rewritten)

        let replaced = try TemporaryFile(text)
        let third = try #require(try TraceFollower.start(replaced.url))
        let newer = try TemporaryFile(text)
        #expect(rename(newer.url.path, replaced.url.path) == 0)
        #expect(try third.poll() == .replaced)

        let removed = try TemporaryFile(text)
        let fourth = try #require(try TraceFollower.start(removed.url))
        try FileManager.default.removeItem(at: removed.url)
        #expect(try fourth.poll() == .removed)
    }

    /// A file written again from its start with the same header line, at least as long as what
    /// was read: a new recording, never joined to the old turns; the same for another recording
    /// copied over the file (the same inode), and for a follow started at the prompt.
    @Test func aRewriteWithTheSameHeaderIsANewRecordingNotAJoin() throws {
        let old = (1...20).map { Self.turn($0) }
        let new = (1...25).map { Self.turn($0).replacingOccurrences(of: #""origin":"op""#, with: #""origin":"qq""#) }
        let text = Array(([Self.header] + old).joined(separator: "\n").utf8) + [0x0A]
        let file = try TemporaryFile(text)
        let follower = try #require(try TraceFollower.start(file.url))
        #expect(follower.trace.turnSequences.count == 20)
        // Truncated and rewritten between two polls: the same first line, every line the same
        // length, the file longer than before.
        let handle = try FileHandle(forWritingTo: file.url)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(([Self.header] + new).joined(separator: "\n").utf8 + [0x0A]))
        try handle.close()
        #expect(try follower.poll() == .rewritten)
        #expect(follower.trace.turnSequences.count == 20, "nothing of the new recording is joined")
        #expect(!follower.namesTheFileRead)

        // Another recording copied over it (the same inode, the same header) after it grew.
        let copied = try TemporaryFile(text)
        let second = try #require(try TraceFollower.start(copied.url))
        let other = try TemporaryFile(Array(([Self.header] + new).joined(separator: "\n").utf8) + [0x0A])
        try FileManager.default.removeItem(at: copied.url)
        try FileManager.default.copyItem(at: other.url, to: copied.url)
        #expect(try second.poll() == .replaced)
        let inPlace = try TemporaryFile(text)
        let third = try #require(try TraceFollower.start(inPlace.url))
        try Data(contentsOf: other.url).write(to: inPlace.url, options: [])
        #expect(try third.poll() == .rewritten)

        // A trace loaded whole, then its file rewritten before `follow` at the prompt.
        let loaded = try TemporaryFile(text)
        let trace = try TraceFile.load(contentsOf: loaded.url)
        #expect(!TraceFollower.hasChanged(trace, at: loaded.url))
        try Data(contentsOf: other.url).write(to: loaded.url, options: [])
        #expect(TraceFollower.hasChanged(trace, at: loaded.url))
        #expect(throws: TraceReadError.self) { try TraceFollower.continuing(trace, at: loaded.url) }
    }

    @Test func aTraceLoadedWholeGoesOnFromWhereItsLoadStopped() throws {
        let second = Array(Self.turn(2).utf8)
        let file = try TemporaryFile(Array((Self.header + "\n" + Self.turn(1) + "\n").utf8) + second.prefix(25))
        let trace = try TraceFile.load(contentsOf: file.url)
        #expect(trace.warnings.map(\.message).contains("last line is truncated; ignored"))
        let follower = try TraceFollower.continuing(trace, at: file.url)
        #expect(trace.warnings.isEmpty)
        try file.append(second.dropFirst(25) + [0x0A])
        try file.append(
            Array((#"{"type":"trailer","ok":true,"turns":2,"evicted":0,"dropped":0,"keyframes":0}"# + "\n").utf8))
        guard case .grew(let growth) = try follower.poll() else {
            Issue.record("nothing was read")
            return
        }
        #expect(growth.reachedTrailer)
        #expect(trace.turnSequences == [1, 2])
        #expect(throws: TraceReadError.self) { try TraceFollower.continuing(trace, at: file.url) }
    }
}
