import Foundation
import Testing

@testable import CogTraceFormat
@testable import CogTraceStore

/// Loading a file: read on every core when it is big, its lines told apart by their first bytes,
/// and room made for its turns before they are read. Each fast path must read exactly what the
/// plain one reads.
@Suite("Loading a trace")
struct TraceLoadingTests {
    private static let recordings = RecordingFiles.folder

    /// Read in shares (every file, whatever its size) or in one go, a file gives the same bytes:
    /// sizes around the share boundaries, an empty file, and a recording.
    @Test func readingInSharesGivesTheBytesOfOneRead() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("trace-loading-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = SystemRandomNumberGenerator()
        for size in [0, 1, 7, 8, 9, 63, 64, 65, 4_095, 4_096, 100_003] {
            let url = folder.appendingPathComponent("\(size).bin")
            let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try Data(bytes).write(to: url)
            #expect(try TraceFile.readBytes(of: url, parallelAbove: 0).array == bytes, "\(size) bytes")
            #expect(try TraceFile.readBytes(of: url, parallelAbove: .max).array == bytes, "\(size) bytes")
            #expect(try !TraceFile.readBytes(of: url).isMapped, "a file without a trailer is read, not mapped")
        }
        // A finished trace is mapped, and reads as the same bytes.
        let tour = Self.recordings.appendingPathComponent("tour.cogtrace")
        let mapped = try TraceFile.readBytes(of: tour, parallelAbove: 0)
        #expect(mapped.isMapped)
        #expect(mapped.array == Array(try Data(contentsOf: tour)))
        #expect(mapped[0] == UInt8(ascii: "{") && mapped[0..<9] == Array(#"{"type":""#.utf8)[...])
        mapped.releaseResidentPages()
        #expect(mapped.array == Array(try Data(contentsOf: tour)), "pages given back read again")
    }

    /// A load says how it is getting on, from nothing to every byte, under one task name, so a
    /// front end can show a line for a big file: a report every few megabytes of lines.
    @Test func aLoadReportsItsProgressFromStartToEnd() throws {
        let header =
            #"{"type":"header","format":"cogtrace","version":"1.1","minReader":"1.0","producer":"test","run":"r","title":"t","clock":"virtual","mode":"ring","capacity":10,"keyframeEvery":100}"#
        let turns = (1...200_000).map { sequence in
            #"{"type":"turn","seq":\#(sequence),"name":"n","origin":"op","cause":null,"start":0,"duration":0,"events":[]}"#
        }
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("progress-\(UUID().uuidString).cogtrace")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(([header] + turns).joined(separator: "\n").utf8).write(to: url)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        #expect(size > 2 * TraceContents.progressStep)

        let reports = Reports()
        let trace = try TraceFile.load(contentsOf: url, progress: { reports.list.append($0) })
        #expect(trace.turnSequences.count == 200_000)
        #expect(reports.list.allSatisfy { $0.task == TraceFile.loadingTask })
        #expect(reports.list.first?.completed == 0)
        #expect(reports.list.last == TraceProgress(task: TraceFile.loadingTask, completed: size, total: size))
        #expect(reports.list.count >= 4, "a report every \(TraceContents.progressStep) bytes of lines")
        let fractions = reports.list.map(\.fraction)
        #expect(fractions == fractions.sorted())
    }

    /// What a load reported, in order.
    private final class Reports {
        var list: [TraceProgress] = []
    }

    @Test func aLinesFirstBytesTellTheRecordsTheReaderOnlyLocates() {
        func type(_ line: String) -> TraceScanner.QuickType? { TraceScanner.quickType(Array(line.utf8)[...]) }
        #expect(type(#"{"type":"turn","seq":1}"#) == .turn)
        #expect(type(#"{"type":"idle","after":1}"#) == .idle)
        #expect(type(#"{"type":"keyframe","before":1}"#) == .keyframe)
        #expect(type(#"{"type":"state","id":1}"#) == .other)
        #expect(type(#"{"type":"turns","seq":1}"#) == .other)
        #expect(type(#"{"type":"tur","seq":1}"#) == .other)
        #expect(type(#"{"type":"","seq":1}"#) == .other)
        // Not written this package's way, or cut short: the whole line is parsed instead.
        #expect(type(#"{ "type":"turn","seq":1}"#) == nil)
        #expect(type(#"{"seq":1,"type":"turn"}"#) == nil)
        #expect(type(#"{"type":""#) == nil)
        #expect(type(#"{"type":"turn"#) == nil)
        #expect(type(#"{"type":"averyveryverylongname","seq":1}"#) == nil)
    }

    @Test func aTurnsNumberIsReadFromItsFirstBytesOnlyWhenPlain() {
        func sequence(_ line: String) -> Int? { TraceScanner.quickSequence(Array(line.utf8)[...]) }
        #expect(sequence(#"{"type":"turn","seq":42,"name":"n"}"#) == 42)
        #expect(sequence(#"{"type":"turn","seq":0,"name":"n"}"#) == 0)
        #expect(sequence(#"{"type":"turn","seq":9007199254740991,"name":"n"}"#) == 9_007_199_254_740_991)
        #expect(sequence(#"{"type":"turn","seq":12345678901234567,"name":"n"}"#) == nil)
        #expect(sequence(#"{"type":"turn","seq":1.5,"name":"n"}"#) == nil)
        #expect(sequence(#"{"type":"turn","seq":-1,"name":"n"}"#) == nil)
        #expect(sequence(#"{"type":"turn","seq":42"#) == nil)
        #expect(sequence(#"{"type":"turn","seq":"#) == nil)
        #expect(sequence(#"{"type":"idle","seq":42,"name":"n"}"#) == nil)
    }

    /// The turns counted ahead are the lines that start as a turn record, wherever the line
    /// falls; a recording counts each of its turns.
    @Test func theTurnsCountedAheadAreTheTurnLines() throws {
        let lines = [
            #"{"type":"turn","seq":1}"#, #"{"type":"idle","after":1}"#, #"{"type":"turn","seq":2}"#,
            #"  {"type":"turn","seq":3}"#, "", #"{"type":"turn","seq":4}"#,
        ]
        #expect(TraceScanner.turnRecordCount(in: TraceBytes(Array(lines.joined(separator: "\n").utf8))) == 3)
        #expect(TraceScanner.turnRecordCount(in: TraceBytes(Array((lines.joined(separator: "\n") + "\n").utf8))) == 3)
        #expect(TraceScanner.turnRecordCount(in: TraceBytes([])) == 0)
        let tour = try TraceFile.load(contentsOf: Self.recordings.appendingPathComponent("tour.cogtrace"))
        #expect(TraceScanner.turnRecordCount(in: tour.bytes) == tour.turnSequences.count)
    }
}
