import CogTraceFormat
import Foundation
import Testing

@testable import CogTraceStore

/// A mapped trace whose file is cut shorter while it is open (a test run again rewrites its trace
/// in place): reading past the new end gives zeros and a flag, never a SIGBUS that kills the
/// process, and the trace says how the file changed.
@Suite("A trace cut short on disk while it is open")
struct FileCutShortTests {
    private static let tour = RecordingFiles.folder.appendingPathComponent("tour.cogtrace")

    /// Copies the tour into a new folder, for a test to cut; the caller removes the folder.
    private func copyOfTheTour() throws -> (folder: URL, trace: URL) {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("cut-short-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let trace = folder.appendingPathComponent("tour.cogtrace")
        try FileManager.default.copyItem(at: Self.tour, to: trace)
        return (folder, trace)
    }

    @Test func readingPastTheNewEndGivesZerosAndSaysTheFileChanged() throws {
        let (folder, url) = try copyOfTheTour()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try TraceFile.readBytes(of: url)
        try #require(bytes.isMapped)
        #expect(bytes.cutShort == nil, "nothing changed yet")
        let size = bytes.count
        #expect(truncate(url.path, 100) == 0)
        // Without the guard, this read of a page the file no longer has is a SIGBUS.
        let last = bytes[size - 1]
        #expect(last == 0, "the bytes past the new end read as zeros")
        #expect(bytes[0] == UInt8(ascii: "{"), "the bytes before it are still there")
        #expect(bytes.array.count == size)
        #expect(bytes.cutShort == TraceFileChange(mappedSize: size, sizeNow: 100))
    }

    @Test func aWholeTraceCutShortSaysSoBeforeAnyReadFaults() throws {
        let (folder, url) = try copyOfTheTour()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = try TraceFile.load(contentsOf: url)
        #expect(trace.changeOnDisk == nil)
        let last = try #require(trace.turnSequences.last)
        #expect(truncate(url.path, 0) == 0)
        #expect(trace.changeOnDisk?.sizeNow == 0)
        // Decoding a turn whose line is gone is an error or an answer read from zeros, never a crash.
        _ = try? trace.turn(last)
        #expect(trace.changeOnDisk != nil)
        #expect(String(describing: trace.changeOnDisk!).hasSuffix("is 0 now"))
    }

    @Test func aFileReplacedByRenameKeepsWhatWasRead() throws {
        let (folder, url) = try copyOfTheTour()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = try TraceFile.load(contentsOf: url)
        let last = try #require(trace.turnSequences.last)
        let other = folder.appendingPathComponent("other")
        try Data("{}\n".utf8).write(to: other)
        #expect(rename(other.path, url.path) == 0)
        #expect(trace.changeOnDisk == nil, "the open file is the one mapped, whole")
        #expect(try trace.turn(last).sequence == last)
    }
}
