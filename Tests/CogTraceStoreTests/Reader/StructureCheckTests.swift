import CogTraceFormat
import Foundation
import Testing

@testable import CogTraceStore

/// Each kind of structural damage the reader tolerates is found by the structure check, at its
/// line: a lost declaration, an idle record out of place, a turn that cannot be decoded (its name
/// not a string, its generation not a number), a cause that is not an earlier turn, a recompute
/// caused by a registration, an event naming an id nothing declares, a generation below 1.
@Suite("Structure check")
struct StructureCheckTests {
    private static let tour = try! String(
        contentsOf: RecordingFiles.folder.appendingPathComponent("tour.cogtrace"), encoding: .utf8
    ).split(separator: "\n").map(String.init)

    /// The tour with line `number` (from 1) changed by `change`, or removed when it returns nil.
    private func tour(changing number: Int, _ change: (String) -> String?) throws -> TraceFile {
        var lines = Self.tour
        if let changed = change(lines[number - 1]) { lines[number - 1] = changed } else { lines.remove(at: number - 1) }
        return try TraceFile.parse(lines.joined(separator: "\n") + "\n")
    }

    /// The line (from 1) of the first tour line containing `text`.
    private func line(containing text: String) throws -> Int {
        try #require(Self.tour.firstIndex { $0.contains(text) }) + 1
    }

    @Test func theRecordingAsWrittenHasNoIssue() throws {
        let check = try #require(try TraceFile.parse(Self.tour.joined(separator: "\n") + "\n").checkStructure())
        #expect(check.issues.isEmpty)
        #expect(check.undecodable.isEmpty)
    }

    @Test func aLostDeclarationIsSaidWhereItsStateIsFirstNamed() throws {
        let declaration = try line(containing: #"{"type":"state","id":5,"#)
        let trace = try tour(changing: declaration) { _ in nil }
        let check = try #require(trace.checkStructure())
        let first = try #require(check.issues.first)
        #expect(first.message.contains("names #5, which no state record or registration declares"))
        #expect(
            first.line == (try line(containing: #"{"e":"created","s":5,"#)) - 1, "one line up: the declaration is gone")
        #expect(check.issues.filter { $0.message.contains("names #5,") }.count == 1, "said once")
    }

    @Test func anIdleRecordBeforeTheFirstTurnThatFollowsALaterOneIsSaid() throws {
        var lines = Self.tour
        let idle = try #require(lines.first { $0.hasPrefix(#"{"type":"idle""#) })
        let firstTurn = try #require(lines.firstIndex { $0.hasPrefix(#"{"type":"turn""#) })
        lines.insert(idle, at: firstTurn)
        let check = try #require(try TraceFile.parse(lines.joined(separator: "\n") + "\n").checkStructure())
        let issue = try #require(check.issues.first)
        #expect(issue.line == firstTurn + 1)
        #expect(issue.message.contains("stands before turn 1"))
    }

    @Test(arguments: [#""name":42"#, #""name":null"#])
    func aTurnWhoseNameIsNotAStringIsUndecodable(_ name: String) throws {
        let number = try line(containing: #""seq":9,"#)
        let trace = try tour(changing: number) { $0.replacing(#/"name":"[^"]*"/#, with: name) }
        let check = try #require(trace.checkStructure())
        #expect(check.undecodable.map(\.turn) == [9])
        #expect(check.issues.contains { $0.line == number && $0.message.contains("cannot be decoded") })
    }

    @Test func aCauseThatIsTheTurnItselfIsSaid() throws {
        let number = try line(containing: #""seq":10,"#)
        let trace = try tour(changing: number) { $0.replacingOccurrences(of: #""cause":null"#, with: #""cause":10"#) }
        let issue = try #require(trace.checkStructure()?.issues.first)
        #expect(issue.line == number && issue.message.contains("names turn 10 as its cause"))
    }

    @Test func aRecomputeCausedByARegistrationIsSaid() throws {
        let number = try line(containing: #""by":4"#)
        // Id 2 is the `Weather` registration the keyframe holds.
        let trace = try tour(changing: number) { $0.replacingOccurrences(of: #""by":4"#, with: #""by":2"#) }
        let issue = try #require(trace.checkStructure()?.issues.first)
        #expect(issue.line == number && issue.message.contains("a registration, not a state"))
    }

    @Test(arguments: [#""g":"1""#, #""g":1.5"#])
    func aGenerationOfTheWrongTypeMakesItsTurnUndecodable(_ generation: String) throws {
        let number = try line(containing: #""e":"generationStarted","s":6,"g":1"#)
        let trace = try tour(changing: number) {
            $0.replacingOccurrences(
                of: #""e":"generationStarted","s":6,"g":1"#, with: #""e":"generationStarted","s":6,\#(generation)"#)
        }
        #expect(trace.checkStructure()?.undecodable.count == 1)
    }

    @Test func aGenerationBelowOneAndAnUndeclaredIdAreSaid() throws {
        let number = try line(containing: #""e":"generationStarted","s":6,"g":1"#)
        let negative = try tour(changing: number) {
            $0.replacingOccurrences(of: #""s":6,"g":1"#, with: #""s":6,"g":-1"#)
        }
        #expect(negative.checkStructure()?.issues.first?.message.contains("generation -1") == true)
        let ghost = try tour(changing: number) { $0.replacingOccurrences(of: #""s":6,"g":1"#, with: #""s":999,"g":1"#) }
        let issue = try #require(ghost.checkStructure()?.issues.first)
        #expect(issue.line == number && issue.message.contains("names #999"))
    }
}
