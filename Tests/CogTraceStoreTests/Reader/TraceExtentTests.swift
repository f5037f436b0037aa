import Foundation
import Testing

@testable import CogTraceFormat
@testable import CogTraceStore

/// A turn line deleted at either end of a file: the first keyframe and the trailer say how far
/// the recording reaches, so the reader names the missing turn as a gap (which answers that
/// span it warn about) instead of answering as if the file ended or began there. The same
/// holds when the trace is reopened from its sidecar index.
@Suite("The file's extent")
struct TraceExtentTests {
    private let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("trace-extent-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// The tour with the turn line of `turn` left out, written to this test's folder.
    private func tour(without turn: Int) throws -> URL {
        let text = try String(
            contentsOf: RecordingFiles.folder.appendingPathComponent("tour.cogtrace"), encoding: .utf8)
        let kept = text.split(separator: "\n", omittingEmptySubsequences: false).filter {
            !$0.hasPrefix(#"{"type":"turn","seq":\#(turn),"#)
        }
        let url = directory.appendingPathComponent("tour-without-\(turn).cogtrace")
        try kept.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func theWholeTourHasNoGap() throws {
        let trace = try TraceFile.load(contentsOf: RecordingFiles.folder.appendingPathComponent("tour.cogtrace"))
        #expect(trace.missingTurns.isEmpty)
        #expect(trace.warnings.isEmpty)
    }

    @Test(arguments: [false, true])
    func aDeletedFirstTurnIsAGapBeforeTheFirstLine(indexed: Bool) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try tour(without: 1)
        let trace = try load(url, indexed: indexed)
        #expect(trace.missingTurns.map { [$0.first.rawValue, $0.last.rawValue] } == [[1, 1]])
        #expect(
            trace.warnings.map(\.message).contains {
                $0.hasPrefix("turn 1 is missing from the file: the first keyframe (line 17) stands before turn 1")
            }, "\(trace.warnings)")
    }

    @Test(arguments: [false, true])
    func aDeletedLastTurnIsAGapTheTrailerCounts(indexed: Bool) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try tour(without: 25)
        let trace = try load(url, indexed: indexed)
        #expect(trace.missingTurns.map { [$0.first.rawValue, $0.last.rawValue] } == [[25, 25]])
        let warnings = trace.warnings.filter { $0.message.contains("the trailer (line 58) counts 25 turns") }
        #expect(warnings.count == 1, "\(trace.warnings)")
    }

    /// A gap in the middle is already named where it is; the trailer check counts it and adds
    /// nothing.
    @Test func aGapInTheMiddleIsNotCountedTwice() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try TraceFile.load(contentsOf: try tour(without: 12))
        #expect(trace.missingTurns.map { [$0.first.rawValue, $0.last.rawValue] } == [[12, 12]])
        #expect(!trace.warnings.contains { $0.message.contains("the trailer") }, "\(trace.warnings)")
    }

    /// A trailer that counts fewer turns than the file holds says so; one whose count is out of
    /// the documented range is named, not used in arithmetic.
    @Test func aTrailerThatDisagreesIsNamed() throws {
        let header =
            #"{"type":"header","format":"cogtrace","version":"1.1","minReader":"1.0","producer":"t","run":"r","title":"t","clock":"virtual","mode":"ring","capacity":10,"keyframeEvery":10}"#
        let turns = (1...3).map {
            #"{"type":"turn","seq":\#($0),"name":"n","origin":"op","cause":null,"start":0,"duration":0,"events":[]}"#
        }
        for (count, expected) in [
            ("2", "the trailer counts 2 turns, but the file holds 3"),
            ("9007199254740993", "the trailer 'turns' 9007199254740993 is outside 0..<2^53"),
        ] {
            let trailer = #"{"type":"trailer","ok":true,"turns":\#(count),"evicted":0,"dropped":0,"keyframes":0}"#
            let trace = try TraceFile.parse(([header] + turns + [trailer]).joined(separator: "\n") + "\n")
            #expect(trace.warnings.contains { $0.message.hasPrefix(expected) && $0.line == 5 }, "\(trace.warnings)")
        }
    }

    /// Reads `url` whole, or (when `indexed`) writes its index and reads it again from there.
    private func load(_ url: URL, indexed: Bool) throws -> TraceFile {
        guard indexed else { return try TraceFile.load(contentsOf: url) }
        _ = try TraceFile.load(contentsOf: url, progress: nil, index: .always) { _ in }
        var notes: [String] = []
        let reopened = try TraceFile.load(contentsOf: url, progress: nil, index: .always) { notes.append($0) }
        #expect(notes.isEmpty, "read from the index: \(notes)")
        return reopened
    }
}
