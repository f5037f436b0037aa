import Foundation
import Testing

@testable import CogTraceFormat
@testable import CogTraceStore

/// The sidecar index covers every byte it vouches for: a change anywhere in the part it covers,
/// far from both ends and keeping the file's size (two equal-length turn lines swapped, a digit
/// changed), makes it stale, so it is rebuilt and the answer is the one a full read gives.
@Suite("Sidecar index checksum", .serialized)
struct TraceIndexChecksumTests {
    private let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("index-sum-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// A finished trace of `turns` turns, each writing the turn's number to one state: a few
    /// hundred kilobytes, so its middle lies far from its first line and its last 64 KiB.
    private func longTrace(turns: Int) -> [String] {
        var lines = [
            #"{"type":"header","format":"cogtrace","version":"1.1","minReader":"1.0","producer":"test","run":"virtual:long","title":"long","clock":"virtual","mode":"stream","capacity":null,"keyframeEvery":null}"#,
            #"{"type":"state","id":1,"label":"counter.count","decl":"counter.count","key":null,"shape":"manual","valueType":"Int","lifetime":"app","policy":null}"#,
            #"{"type":"turn","seq":1,"name":"Counter.start()","origin":"assembly","cause":null,"start":0,"duration":0,"events":[{"e":"created","s":1,"v":{"t":"1","j":1}}]}"#,
        ]
        for turn in 2...turns {
            lines.append(
                #"{"type":"turn","seq":\#(turn),"name":"Counter.increment()","origin":"app","cause":null,"start":0,"duration":0,"events":[{"e":"write","s":1,"old":{"t":"\#(turn - 1)","j":\#(turn - 1)},"new":{"t":"\#(turn)","j":\#(turn)}}]}"#
            )
        }
        lines.append(#"{"type":"trailer","ok":true,"turns":\#(turns),"evicted":0,"dropped":0,"keyframes":0}"#)
        return lines
    }

    /// What a load gives (its turns' numbers, warnings and a digest of every turn), or the
    /// error it stops with.
    private func outcome(_ url: URL, index: TraceIndexUse, notes: inout [String]) -> String {
        do {
            var heard: [String] = []
            let file = try TraceFile.load(contentsOf: url, progress: nil, index: index) { heard.append($0) }
            notes = heard
            var digest = Hasher()
            for sequence in file.turnSequences {
                digest.combine(sequence.rawValue)
                digest.combine((try? "\(file.turn(sequence))") ?? "turn \(sequence) does not decode")
            }
            return "\(file.turnSequences.count) turns \(file.warnings) \(file.missingTurns) \(digest.finalize())"
        } catch {
            return "refused: \(error)"
        }
    }

    enum Change: String, CaseIterable {
        case twoTurnLinesSwapped, oneDigitChanged, aLineFeedMoved
    }

    @Test(arguments: Change.allCases)
    func aChangeInTheMiddleMakesTheIndexStale(_ change: Change) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var lines = longTrace(turns: 3_000)
        let trace = directory.appendingPathComponent("long.cogtrace")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: trace)
        var notes: [String] = []
        _ = outcome(trace, index: .always, notes: &notes)
        #expect(notes.count == 1 && notes[0].hasPrefix("indexed "), "\(notes)")
        let size = try FileManager.default.attributesOfItem(atPath: trace.path)[.size] as? Int
        // Turns 1,500 and 1,501 (lines 1,502 and 1,503) write numbers of the same width.
        switch change {
        case .twoTurnLinesSwapped: lines.swapAt(1_501, 1_502)
        case .oneDigitChanged: lines[1_501] = lines[1_501].replacingOccurrences(of: #""j":1500}"#, with: #""j":1509}"#)
        case .aLineFeedMoved:
            // The same bytes, but the line break sits elsewhere: two lines that no longer parse.
            let joined = lines[1_501] + "\n" + lines[1_502]
            let moved = joined.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(
                of: #"{"type":"turn","seq":1501"#, with: "\n\"type\":\"turn\",\"seq\":1501")
            lines.replaceSubrange(1_501...1_502, with: [moved])
        }
        let text = lines.joined(separator: "\n") + "\n"
        try Data(text.utf8).write(to: trace)
        #expect(text.utf8.count == size, "the size is kept, so only the bytes can tell")
        var ignored: [String] = []
        let whole = outcome(trace, index: .off, notes: &ignored)
        let reopened = outcome(trace, index: .always, notes: &notes)
        #expect(reopened == whole, "\(change)")
        if !whole.hasPrefix("refused") {
            #expect(notes.first?.hasPrefix("rebuilding the index of ") == true, "\(change): \(notes)")
        }
    }

    @Test func everyByteCountsAcrossRegions() {
        var text = [UInt8](repeating: 0x61, count: TraceChecksum.regionLength * 2 + 37)
        let base = TraceChecksum.of(TraceBytes(text), covering: text.count)
        #expect(TraceChecksum.of(TraceBytes(text), covering: text.count) == base, "the same bytes, the same sum")
        for position in [0, 31, 32, TraceChecksum.regionLength - 1, TraceChecksum.regionLength, text.count - 1] {
            text[position] = 0x62
            #expect(TraceChecksum.of(TraceBytes(text), covering: text.count) != base, "byte \(position)")
            text[position] = 0x61
        }
        #expect(TraceChecksum.of(TraceBytes(text), covering: text.count - 1) != base, "the length counts")
        // Two blocks of 32 bytes exchanged: the same bytes in another order.
        var swapped = text
        for offset in 0..<32 { swapped.swapAt(64 + offset, 96 + offset) }
        swapped[64] = 0x63
        text[96] = 0x63
        #expect(
            TraceChecksum.of(TraceBytes(swapped), covering: text.count)
                != TraceChecksum.of(TraceBytes(text), covering: text.count))
    }
}
