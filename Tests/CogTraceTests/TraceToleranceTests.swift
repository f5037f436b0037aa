import Cog
import CogTesting
import Foundation
import Testing

@testable import CogTrace
@testable import CogTraceFormat
@testable import CogTraceStore

private let _counterCog = Cog<Int>.Manual(name: "tolerance.counter") { 0 }
private let doubledCog = Cog<Int>(name: "tolerance.doubled") { c in c[_counterCog] * 2 }

/// A small finished trace: a few turns of a counter and its double.
@MainActor
private func smallTrace() -> String {
    let recorder = CogRecorder(configuration: RecorderConfiguration(title: "small", clock: .virtual(TestClock())))
    let cogs = Cogs.forTesting()
    recorder.attach(to: cogs)
    _ = cogs[doubledCog]
    for value in 1...3 { cogs.turn("set") { c in c[_counterCog] = value } }
    return recorder.traceText()
}

@Suite("Trace tolerance")
struct TraceToleranceTests {
    @Test func truncationAtEveryOffsetOfTheLastRecordLoadsWithAWarning() throws {
        let text = smallTrace()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let withoutTrailer = lines.dropLast(2).joined(separator: "\n") + "\n"
        let lastTurn = lines[lines.count - 3]
        let keepsBefore = lines.dropLast(3).joined(separator: "\n") + "\n"
        let fullTurns = try TraceFile.parse(withoutTrailer).turnCount
        for cut in 1..<lastTurn.utf8.count {
            let truncated = keepsBefore + String(decoding: Array(lastTurn.utf8.prefix(cut)), as: UTF8.self)
            let file = try TraceFile.parse(truncated)
            #expect(file.turnCount == fullTurns - 1, "cut at \(cut)")
            #expect(file.warnings.contains { $0.message == "last line is truncated; ignored" }, "cut at \(cut)")
        }
    }

    @Test func aMissingTrailerLoadsWithAWarning() throws {
        let text = smallTrace()
        let withoutTrailer = text.split(separator: "\n").dropLast().joined(separator: "\n") + "\n"
        let file = try TraceFile.parse(withoutTrailer)
        #expect(file.trailer == nil)
        #expect(
            file.warnings.map(\.message) == ["no trailer: the recorder did not finish; the trace may be incomplete"])
        #expect(file.turnCount == 3)
    }

    @Test func anUnknownRecordTypeOrEventKindFromANewerMinorVersionIsSkipped() throws {
        var lines = smallTrace().split(separator: "\n").map(String.init)
        lines.insert(#"{"type":"annotation","text":"from 1.1"}"#, at: 2)
        lines[lines.count - 2] = lines[lines.count - 2].replacingOccurrences(
            of: #""events":["#, with: #""events":[{"e":"hologram","s":1},"#)
        let file = try TraceFile.parse(lines.joined(separator: "\n") + "\n")
        #expect(file.warnings.map(\.message) == ["unknown record type 'annotation' (from a newer writer?); ignored"])
        #expect(try file.turn(file.turnSequences.last!).events.allSatisfy { $0.kind != "hologram" })
    }

    /// Two idle records where a writer writes one: after the last turn, or before the first.
    @Test(arguments: [true, false])
    func aSecondIdleRecordIsNamedAndLeftOut(afterTheLastTurn: Bool) throws {
        var lines = smallTrace().split(separator: "\n").map(String.init)
        let last = try TraceFile.parse(smallTrace()).turnSequences.last!.rawValue
        let turns = lines.indices.filter { lines[$0].hasPrefix(#"{"type":"turn""#) }
        let at = afterTheLastTurn ? turns.last! + 1 : turns.first!
        let after = afterTheLastTurn ? last : 0
        for state in 1...2 {
            lines.insert(
                #"{"type":"idle","after":\#(after),"events":[{"e":"notice","s":\#(state)}]}"#, at: at + state - 1)
        }
        let file = try TraceFile.parse(lines.joined(separator: "\n") + "\n")
        let place = afterTheLastTurn ? "after turn \(last)" : "before the first turn"
        #expect(file.warnings.map(\.message) == ["a second idle record \(place) (a writer writes one); ignored"])
        #expect(file.warnings.first?.line == at + 2, "lines count from 1; the second record is the one named")
        if afterTheLastTurn {
            #expect(try file.turn(file.turnSequences.last!).after == [.notice(state: NodeID(1))])
        } else {
            #expect(file.leadingIdle?.line == at + 1, "the first one is kept")
        }
    }

    @Test func aNewerMajorVersionIsRefusedClearly() {
        let text = smallTrace().replacingOccurrences(of: #""minReader":"1.0""#, with: #""minReader":"2.0""#)
        #expect(throws: TraceReadError(line: 1, message: "trace needs reader version 2.0; this reader reads 1.x")) {
            try TraceFile.parse(text)
        }
    }

    @Test func aMalformedRecordInTheMiddleNamesItsLineAndColumn() {
        var lines = smallTrace().split(separator: "\n").map(String.init)
        lines[3] = String(lines[3].dropLast(3))
        let text = lines.joined(separator: "\n") + "\n"
        do {
            _ = try TraceFile.parse(text).snapshot(after: 3)
            Issue.record("a malformed turn record was accepted")
        } catch {
            #expect(error.line == 4)
            #expect(error.column > 0)
        }
    }

    @Test func thousandsOfRandomMutationsNeverCrashAndEveryErrorNamesALine() {
        let original = Array(smallTrace().utf8)
        var generator = SplitMix64(seed: 0xC06)
        let alphabet = Array(#"{}[]":,0123456789-eE.tfnul\ "#.utf8) + [0x0A, 0x00, 0xFF]
        for _ in 0..<3_000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[position] = alphabet.randomElement(using: &generator)!
                case 1: bytes.remove(at: position)
                default: bytes.insert(alphabet.randomElement(using: &generator)!, at: position)
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                let file = try TraceFile.parse(text)
                for sequence in file.turnSequences { _ = try? file.snapshot(after: sequence) }
            } catch {
                #expect(error.line > 0 || error.message.hasPrefix("empty file"), "\(error)")
            }
        }
    }
}

/// A small deterministic generator, so a failing mutation can be reproduced.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
