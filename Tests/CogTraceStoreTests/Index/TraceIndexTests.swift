import Foundation
import Testing

@testable import CogTraceFormat
@testable import CogTraceStore

/// The sidecar index: a trace reopened from it is the trace read whole, field by field, on
/// every committed recording and the hostile fixtures; an index that is stale, cut short,
/// altered, from another version or not an index at all is noticed, said, and rebuilt, never
/// trusted.
@Suite("Sidecar index", .serialized)
struct TraceIndexTests {
    private let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("trace-index-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("coginspectTests/Fixtures/Hostile")

    /// Every committed recording and every hostile fixture that a reader accepts.
    private static var traces: [URL] {
        let recordings =
            (try? FileManager.default.contentsOfDirectory(
                at: RecordingFiles.folder, includingPropertiesForKeys: nil)) ?? []
        let hostile =
            (try? FileManager.default.contentsOfDirectory(at: fixtures, includingPropertiesForKeys: nil)) ?? []
        return (recordings + hostile).filter { $0.pathExtension == "cogtrace" }.sorted { $0.path < $1.path }
    }

    /// A copy of `trace` in this test's folder, where its index may be written.
    private func copy(_ trace: URL) throws -> URL {
        let target = directory.appendingPathComponent(trace.lastPathComponent)
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: trace, to: target)
        return target
    }

    /// Everything a load gives that a command reads.
    private func summary(_ file: TraceFile) throws -> [String] {
        var lines = [
            "\(file.header)", "\(file.states.sorted { $0.key < $1.key }.map { "\($0.value)" })",
            "\(file.failures)", "\(file.trailer.map { "\($0)" } ?? "no trailer")", "\(file.warnings)",
            "\(file.missingTurns)", "\(file.turnSequences)",
            "\(file.keyframes.map { "\($0.before) \($0.snapshot)" })", "\(file.contents.keyframeLines)",
            "\(file.largestKeyframeBytes)",
        ]
        for sequence in file.turnSequences {
            lines.append((try? "\(file.turn(sequence))") ?? "turn \(sequence) does not decode")
        }
        return lines
    }

    @Test func aTraceReopenedFromItsIndexIsTheTraceReadWhole() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var compared = 0
        for original in Self.traces {
            guard let whole = try? TraceFile.load(contentsOf: original) else { continue }
            let trace = try copy(original)
            var notes: [String] = []
            let first = try TraceFile.load(contentsOf: trace, progress: nil, index: .always) { notes.append($0) }
            // Only whole lines are indexed: a trace whose last line is cut short gets none.
            guard whole.contents.truncatedLine == nil, whole.contents.readOffset <= whole.bytes.count else {
                #expect(
                    !FileManager.default.fileExists(atPath: trace.path + ".cogindex"), "\(original.lastPathComponent)")
                continue
            }
            #expect(FileManager.default.fileExists(atPath: trace.path + ".cogindex"), "\(original.lastPathComponent)")
            #expect(notes.count == 1 && notes[0].hasPrefix("indexed "), "\(notes)")
            notes = []
            let reopened = try TraceFile.load(contentsOf: trace, progress: nil, index: .always) { notes.append($0) }
            #expect(notes.isEmpty, "\(original.lastPathComponent): \(notes)")
            #expect(try summary(reopened) == summary(whole), "\(original.lastPathComponent)")
            #expect(try summary(first) == summary(whole), "\(original.lastPathComponent)")
            compared += 1
        }
        #expect(compared >= 7, "every committed recording is compared")
    }

    /// Ways an index goes wrong, each applied to the tour's index or its trace.
    enum Damage: String, CaseIterable {
        case truncated, flippedByte, appendedToTheTrace, tailOfTheTraceChanged, headerOfTheTraceChanged
        case otherVersion, notAnIndex, empty, countTooLarge, grewPastItsTrailer, shorterThanTheIndex
    }

    @Test(arguments: Damage.allCases)
    func aDamagedOrStaleIndexIsRebuiltNeverTrusted(_ damage: Damage) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try copy(RecordingFiles.folder.appendingPathComponent("tour.cogtrace"))
        let indexURL = URL(fileURLWithPath: trace.path + ".cogindex")
        _ = try TraceFile.load(contentsOf: trace, progress: nil, index: .always)
        var index = try [UInt8](Data(contentsOf: indexURL))
        var text = try [UInt8](Data(contentsOf: trace))
        switch damage {
        case .truncated: index.removeLast(index.count / 3)
        case .flippedByte: index[index.count / 2] ^= 0x20
        case .appendedToTheTrace:
            // A line added before the trailer, which stays last so the trace is still finished.
            var lines = text.split(separator: 0x0A).map(Array.init)
            let failure =
                #"{"type":"failure","after":3,"test":"T.a","kind":"issue","message":"late","file":null,"line":null}"#
            lines.insert(Array(failure.utf8), at: lines.count - 1)
            text = Array(lines.joined(separator: [0x0A])) + [0x0A]
        case .tailOfTheTraceChanged:
            let position = try #require(text.lastIndex(of: UInt8(ascii: "1")))
            text[position] = UInt8(ascii: "2")
        case .headerOfTheTraceChanged:
            let title = try #require(String(decoding: text, as: UTF8.self).utf8.indices(of: #""title":""#))
            text[title + 9] ^= 0x20
        case .grewPastItsTrailer:
            // A finished trace does not grow: lines after its trailer make it another file.
            let failure =
                #"{"type":"failure","after":3,"test":"T.a","kind":"issue","message":"late","file":null,"line":null}"#
            text += Array(failure.utf8) + [0x0A]
        case .shorterThanTheIndex: text.removeLast(text.count - (text.dropLast().lastIndex(of: 0x0A) ?? 0) - 1)
        case .otherVersion: index[TraceIndexFile.magic.count] = 0x7F
        case .notAnIndex: index = Array("hello, world\n".utf8)
        case .empty: index = []
        case .countTooLarge:
            // The body says more records than the file holds; its checksum is made to agree.
            index = tamperedRecordCount(index)
        }
        try Data(index).write(to: indexURL)
        try Data(text).write(to: trace)
        let whole = try TraceFile.load(contentsOf: trace)
        var notes: [String] = []
        let reopened = try TraceFile.load(contentsOf: trace, progress: nil, index: .always) { notes.append($0) }
        #expect(try summary(reopened) == summary(whole), "\(damage)")
        #expect(notes.first?.hasPrefix("rebuilding the index of ") == true, "\(damage): \(notes)")
        #expect(notes.count == 2 && notes[1].hasPrefix("indexed "), "\(damage): \(notes)")
        // The rebuilt index is good.
        notes = []
        let again = try TraceFile.load(contentsOf: trace, progress: nil, index: .always) { notes.append($0) }
        #expect(notes.isEmpty)
        #expect(try summary(again) == summary(whole))
    }

    /// A trace indexed while it was being written, then grown: reopening reads the index for the
    /// part it covers and only the lines after it, gives what a whole read gives, and writes the
    /// index again for all of it. On every committed recording, cut at two places.
    @Test func anIndexOfThePartWrittenServesTheTraceOnceItGrew() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var compared = 0
        for original in try FileManager.default.contentsOfDirectory(
            at: RecordingFiles.folder, includingPropertiesForKeys: nil
        ) where original.pathExtension == "cogtrace" {
            let text = try [UInt8](Data(contentsOf: original))
            let whole = try TraceFile.load(contentsOf: original)
            let lineEnds = text.indices.filter { text[$0] == 0x0A }
            for share in [3, 7] {
                let trace = directory.appendingPathComponent(original.lastPathComponent)
                try? FileManager.default.removeItem(at: URL(fileURLWithPath: trace.path + ".cogindex"))
                let cut = lineEnds[lineEnds.count * share / 10] + 1
                try Data(text[..<cut]).write(to: trace)
                var notes: [String] = []
                let part = try TraceFile.load(contentsOf: trace, progress: nil, index: .always) { notes.append($0) }
                #expect(notes.count == 1 && notes[0].hasPrefix("indexed "), "\(notes)")
                #expect(part.trailer == nil)
                try Data(text).write(to: trace)
                notes = []
                let grown = try TraceFile.load(contentsOf: trace, progress: nil, index: .always) { notes.append($0) }
                #expect(notes.count == 1 && notes[0].hasPrefix("indexed "), "written again for all: \(notes)")
                #expect(try summary(grown) == summary(whole), "\(original.lastPathComponent) cut at \(share)/10")
                notes = []
                let again = try TraceFile.load(contentsOf: trace, progress: nil, index: .always) { notes.append($0) }
                #expect(notes.isEmpty, "the index covers all of it now: \(notes)")
                #expect(try summary(again) == summary(whole))
                compared += 1
            }
        }
        #expect(compared >= 14)
    }

    /// Following a trace with an index of its start reads only what came after it, and saving
    /// the follower's index extends it to all that was read.
    @Test func aFollowedTraceStartsFromItsIndexAndExtendsIt() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = RecordingFiles.folder.appendingPathComponent("heat-advisory.cogtrace")
        let text = try [UInt8](Data(contentsOf: original))
        let lineEnds = text.indices.filter { text[$0] == 0x0A }
        let trace = directory.appendingPathComponent("followed.cogtrace")
        let plain = directory.appendingPathComponent("plain.cogtrace")
        let first = lineEnds[lineEnds.count / 3] + 1
        // Half a line past the second cut: it waits for its line feed.
        let second = lineEnds[lineEnds.count * 2 / 3] + 10
        try Data(text[..<first]).write(to: trace)
        _ = try TraceFile.load(contentsOf: trace, progress: nil, index: .always)
        try Data(text[..<second]).write(to: trace)
        try Data(text[..<second]).write(to: plain)
        let follower = try #require(try TraceFollower.start(trace, index: .always))
        let unindexed = try #require(try TraceFollower.start(plain))
        #expect(try summary(follower.trace) == summary(unindexed.trace), "from the index, as read whole")
        #expect(follower.trace.readByteCount == lineEnds[lineEnds.count * 2 / 3] + 1)
        var notes: [String] = []
        follower.saveIndex { notes.append($0) }
        #expect(notes.count == 1 && notes[0].hasPrefix("indexed "), "\(notes)")
        notes = []
        follower.saveIndex { notes.append($0) }
        #expect(notes.isEmpty, "nothing more was read, so nothing is written")
        try Data(text).write(to: trace)
        _ = try follower.poll()
        #expect(follower.trace.trailer != nil)
        follower.saveIndex { notes.append($0) }
        #expect(notes.count == 1)
        notes = []
        let reopened = try TraceFile.load(contentsOf: trace, progress: nil, index: .always) { notes.append($0) }
        #expect(notes.isEmpty, "the followed file's index covers it all: \(notes)")
        #expect(try summary(reopened) == summary(try TraceFile.load(contentsOf: original)))
    }

    /// Reopening from an index says how far it got, as a load does: a big trace's index holds
    /// millions of turns, and the front end shows a line once that runs long.
    @Test func reopeningFromTheIndexReportsItsProgress() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try copy(RecordingFiles.folder.appendingPathComponent("tour.cogtrace"))
        _ = try TraceFile.load(contentsOf: trace, progress: nil, index: .always)
        var reports: [TraceProgress] = []
        var notes: [String] = []
        _ = try TraceFile.load(
            contentsOf: trace, progress: { reports.append($0) }, index: .always, note: { notes.append($0) })
        #expect(notes.isEmpty, "reopened from the index: \(notes)")
        #expect(reports.count >= 3, "\(reports)")
        #expect(reports.allSatisfy { $0.task == TraceFile.loadingTask && $0.completed <= $0.total })
        let fractions = reports.dropFirst().map(\.fraction)
        #expect(fractions == fractions.sorted(), "it only moves forward: \(fractions)")
    }

    /// `index` with its count of record lines set past what the file holds, checksum fixed.
    private func tamperedRecordCount(_ index: [UInt8]) -> [UInt8] {
        var reader = IndexDecoder(bytes: index[TraceIndexFile.magic.count...])
        _ = try? reader.unsigned()
        _ = try? reader.unsigned()
        _ = try? reader.word()
        _ = try? reader.word()
        let bodyStart = reader.offset
        var body = IndexDecoder(bytes: index[bodyStart..<(index.count - 8)])
        _ = try? body.unsigned()
        _ = try? body.unsigned()
        var tampered = Array(index[..<body.offset])
        var count = IndexEncoder()
        count.unsigned(1 << 40)
        tampered += count.bytes
        _ = try? body.unsigned()
        tampered += index[body.offset..<(index.count - 8)]
        let checksum = TraceIndexFile.checksum(tampered[bodyStart...])
        return tampered + withUnsafeBytes(of: checksum.littleEndian, Array.init)
    }

    @Test func anIndexThatCannotBeWrittenBesideGoesToTheCacheDirectory() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try copy(RecordingFiles.folder.appendingPathComponent("tour.cogtrace"))
        let locations = TraceIndexStore.locations(of: trace)
        #expect(locations.first?.path == trace.path + ".cogindex")
        if let cache = locations.dropFirst().first {
            #expect(cache.path.contains("cog-inspector/") && cache.pathExtension == "cogindex")
        }
        // A directory this process cannot write (root ignores permissions, so it is a file's name).
        let blocked = directory.appendingPathComponent("blocked.cogtrace.cogindex")
        try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: true)
        let inside = directory.appendingPathComponent("blocked.cogtrace")
        try FileManager.default.copyItem(at: trace, to: inside)
        var notes: [String] = []
        _ = try TraceFile.load(contentsOf: inside, progress: nil, index: .always) { notes.append($0) }
        let expected = TraceIndexStore.locations(of: inside).dropFirst().first
        if let expected {
            #expect(notes.first?.contains(expected.path) == true, "\(notes)")
            #expect(FileManager.default.fileExists(atPath: expected.path))
            try? FileManager.default.removeItem(at: expected)
        }
    }

    @Test func offWritesNothingAndAutomaticLeavesSmallTracesAlone() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try copy(RecordingFiles.folder.appendingPathComponent("tour.cogtrace"))
        _ = try TraceFile.load(contentsOf: trace, progress: nil, index: .off)
        _ = try TraceFile.load(contentsOf: trace, progress: nil, index: .automatic)
        #expect(!FileManager.default.fileExists(atPath: trace.path + ".cogindex"))
    }
}

extension String.UTF8View {
    /// The offset where `needle` first starts.
    fileprivate func indices(of needle: String) -> Int? {
        let bytes = Array(self)
        let wanted = Array(needle.utf8)
        guard bytes.count >= wanted.count else { return nil }
        return (0...(bytes.count - wanted.count)).first { bytes[$0..<($0 + wanted.count)].elementsEqual(wanted) }
    }
}
