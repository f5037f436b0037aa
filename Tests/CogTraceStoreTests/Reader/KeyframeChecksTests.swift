import Foundation
import Testing

@testable import CogTraceFormat
@testable import CogTraceStore

/// Keyframes are checked against the file around them: one inserted where no later turn
/// contradicts it (after the last turn, or missing a state nothing writes again) disagrees with
/// the turns replayed from the keyframe before it, and no answer starts from it; one whose
/// `before` does not fit the turn lines around it is said at load and never used; a trailer
/// counting other than the file's keyframes, and keyframe states no record declares, are said.
@Suite("Keyframe checks")
struct KeyframeChecksTests {
    private static let header =
        #"{"type":"header","format":"cogtrace","version":"1.1","minReader":"1.0","producer":"test","run":"r","title":"t","clock":"virtual","mode":"stream","capacity":null,"keyframeEvery":10}"#

    /// A keyframe before turn `before`: the counter at `count`, and the name unless left out.
    private static func keyframe(before: Int, count: Int, name: String? = "\"ada\"") -> String {
        let nameState = name.map { #",{"id":2,"v":{"t":\#($0),"j":\#($0)},"ver":0,"mark":"clean","deps":[],"obs":[]}"# }
        return
            #"{"type":"keyframe","before":\#(before),"states":[{"id":1,"v":{"t":"\#(count)","j":\#(count)},"ver":\#(count),"mark":"clean","deps":[],"obs":[]}\#(nameState ?? "")],"registrations":[]}"#
    }

    /// Thirty turns, each adding one to `counter.count`; `counter.name` is set before the first
    /// and never written again. A keyframe before turns 1, 11 and 21, as a writer puts them.
    private static func lines(keyframes: Int = 3) -> [String] {
        var lines = [
            header,
            #"{"type":"state","id":1,"label":"counter.count","decl":"counter.count","key":null,"shape":"manual","valueType":"Int","lifetime":"app","policy":null}"#,
            #"{"type":"state","id":2,"label":"counter.name","decl":"counter.name","key":null,"shape":"manual","valueType":"String","lifetime":"app","policy":null}"#,
        ]
        for turn in 1...30 {
            if turn % 10 == 1 { lines.append(keyframe(before: turn, count: turn - 1)) }
            lines.append(
                #"{"type":"turn","seq":\#(turn),"name":"Counter.increment()","origin":"app","cause":null,"start":0,"duration":0,"events":[{"e":"write","s":1,"old":{"t":"\#(turn - 1)","j":\#(turn - 1)},"new":{"t":"\#(turn)","j":\#(turn)}}]}"#
            )
        }
        lines.append(#"{"type":"trailer","ok":true,"turns":30,"evicted":0,"dropped":0,"keyframes":\#(keyframes)}"#)
        return lines
    }

    private func parse(_ lines: [String]) throws -> TraceFile {
        try TraceFile.parse(lines.joined(separator: "\n") + "\n")
    }

    private func name(after turn: Int, in file: TraceFile) throws -> String? {
        try file.snapshot(after: TurnNumber(turn)).states[NodeID(2)]?.value?.text
    }

    @Test func theWrittenFileHasNoDisagreement() throws {
        let file = try parse(Self.lines())
        for turn in 1...30 { #expect(try name(after: turn, in: file) == "ada") }
        #expect(file.keyframeDisagreements.isEmpty)
        #expect(file.warnings.isEmpty)
    }

    @Test func aKeyframeAfterTheLastTurnMissingAStateIsNotUsed() throws {
        var lines = Self.lines(keyframes: 4)
        lines.insert(Self.keyframe(before: 31, count: 30, name: nil), at: lines.count - 1)
        let file = try parse(lines)
        #expect(try name(after: 30, in: file) == "ada", "the replay from the keyframe before it")
        let disagreement = try #require(file.keyframeDisagreements.first)
        #expect(disagreement.line == lines.count - 1)
        #expect(disagreement.replayedFromLine == lines.firstIndex(of: Self.keyframe(before: 21, count: 20))! + 1)
        #expect(disagreement.state == NodeID(2))
        #expect(disagreement.keyframeValue == "absent")
        #expect(
            disagreement.description(naming: "counter.name").contains(
                "disagrees with the turns replayed from the keyframe at line"))
    }

    @Test func anInsertedKeyframeIsTheOneRejectedNotTheGoodOneAfterIt() throws {
        var lines = Self.lines(keyframes: 4)
        let place = try #require(lines.firstIndex { $0.contains(#""seq":15,"#) })
        // Right for the counter (no turn contradicts it), wrong for the name.
        lines.insert(Self.keyframe(before: 15, count: 14, name: "\"bob\""), at: place)
        let file = try parse(lines)
        // The first walk starts from the good keyframe before turn 21 and checks it against
        // the inserted one: they disagree, and the inserted one is found to be the wrong one.
        #expect(try name(after: 25, in: file) == "ada")
        #expect(try name(after: 17, in: file) == "ada")
        #expect(file.keyframeDisagreements.count == 1, "\(file.keyframeDisagreements)")
        #expect(file.keyframeDisagreements.first?.line == place + 1)
    }

    @Test func aKeyframeThatDoesNotFitTheTurnsAroundItIsSaidAndDropped() throws {
        var lines = Self.lines(keyframes: 4)
        let place = try #require(lines.firstIndex { $0.contains(#""seq":5,"#) })
        lines.insert(Self.keyframe(before: (1 << 53) - 1, count: 0, name: nil), at: place)
        let file = try parse(lines)
        #expect(file.keyframes.map(\.before) == [1, 11, 21])
        #expect(
            file.warnings.contains {
                $0.line == place + 1 && $0.message.contains("stands before turn 9007199254740991")
                    && $0.message.contains("(line \(place + 2)) is turn 5")
            }, "\(file.warnings)")
        #expect(try name(after: 30, in: file) == "ada")
    }

    @Test func aTrailerCountingOtherKeyframesIsSaid() throws {
        let file = try parse(Self.lines(keyframes: 2))
        #expect(
            file.warnings.map(\.message) == [
                "the trailer counts 2 keyframes, but the file holds 3; keyframe lines may have been added or removed"
            ])
    }

    @Test func keyframeStatesNoRecordDeclaresAreSaid() throws {
        let lines = Self.lines().filter { !$0.contains(#""label":"counter.name""#) }
        let file = try parse(lines)
        #expect(
            file.warnings.contains {
                $0.line == 3 && $0.message.contains("holds #2, which no state record declares")
            }, "\(file.warnings)")
    }

    @Test func idsOutsideTheDocumentedRangeAreRefused() throws {
        var lines = Self.lines()
        let place = try #require(lines.firstIndex { $0.contains(#""seq":7,"#) })
        lines[place] = lines[place].replacingOccurrences(
            of: #"]}"#, with: #",{"e":"deps","s":1,"ps":[2,9223372036854775807]}]}"#)
        let file = try parse(lines)
        #expect(throws: TraceReadError.self) { try file.turn(7) }
        var keyframed = Self.lines()
        keyframed[3] = keyframed[3].replacingOccurrences(of: #""deps":[]"#, with: #""deps":[-1]"#)
        #expect(throws: TraceReadError.self) { try parse(keyframed) }
    }
}

/// A keyframe whose value reads the same as the turns' but differs in its structured form says
/// both forms, not the same text twice.
@Suite("Keyframe disagreements that read the same")
struct KeyframeSameTextTests {
    @Test func theWarningShowsTheStructuredFormsThatDiffer() throws {
        let header =
            #"{"type":"header","format":"cogtrace","version":"1.1","minReader":"1.0","producer":"test","run":"r","title":"t","clock":"virtual","mode":"stream","capacity":null,"keyframeEvery":10}"#
        var lines = [
            header,
            #"{"type":"state","id":1,"label":"counter.count","decl":"counter.count","key":null,"shape":"manual","valueType":"Int","lifetime":"app","policy":null}"#,
            #"{"type":"keyframe","before":1,"states":[{"id":1,"v":{"t":"0","j":0},"ver":0,"mark":"clean","deps":[],"obs":[]}],"registrations":[]}"#,
        ]
        for turn in 1...12 {
            if turn == 11 {
                // The text agrees with turn 10's write; the JSON is a string, not a number.
                lines.append(
                    #"{"type":"keyframe","before":11,"states":[{"id":1,"v":{"t":"10","j":"10"},"ver":10,"mark":"clean","deps":[],"obs":[]}],"registrations":[]}"#
                )
            }
            lines.append(
                #"{"type":"turn","seq":\#(turn),"name":"inc","origin":"app","cause":null,"start":0,"duration":0,"events":[{"e":"write","s":1,"old":{"t":"\#(turn - 1)","j":\#(turn - 1)},"new":{"t":"\#(turn)","j":\#(turn)}}]}"#
            )
        }
        lines.append(#"{"type":"trailer","ok":true,"turns":12,"evicted":0,"dropped":0,"keyframes":2}"#)
        let file = try TraceFile.parse(lines.joined(separator: "\n") + "\n")
        _ = try file.snapshot(after: TurnNumber(12))
        let disagreement = try #require(file.keyframeDisagreements.first)
        #expect(disagreement.keyframeValue != disagreement.turnValue)
        #expect(disagreement.keyframeValue == #"10 (as JSON "10")"#)
        #expect(disagreement.turnValue == "10 (as JSON 10)")
    }
}
