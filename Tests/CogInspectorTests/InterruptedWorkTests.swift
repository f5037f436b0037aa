import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

@testable import CogInspector

/// Long work looks at Ctrl-C as it goes, not only once it is done: with an interrupt already
/// asked for, `history` builds no rows and a comparison of two recordings stops with
/// `TraceFile.cancelled` (at 1,000,000 turns both ran to the end first, for seconds; the
/// latencies are in docs/inspector.md and `Scripts/interrupt-latency`).
@Suite("Interrupted work stops early")
struct InterruptedWorkTests {
    private static let tour = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Recordings/tour.cogtrace")

    @Test func historyBuildsNoRowsOnceInterrupted() throws {
        let session = InspectorSession(trace: try TraceFile.load(contentsOf: Self.tour), source: "tour")
        let zip = try #require(session.trace.stateID(labelled: "weather.currentZip"))
        let whole = session.context().stateHistory(of: zip, field: nil, through: nil)
        #expect(whole.contains { if case .table = $0 { true } else { false } })
        let cut = session.context(CommandCall(interruptRequested: { true })).stateHistory(
            of: zip, field: nil, through: nil)
        #expect(!cut.contains { if case .table = $0 { true } else { false } }, "\(cut)")
        #expect(throws: InspectorError.interrupted) {
            try session.execute("history weather.currentZip", call: CommandCall(interruptRequested: { true }))
        }
    }

    @Test func aComparisonStopsWhenEitherTraceIsCancelled() throws {
        // Enough turns that the loop reaches a check: the tour twice over, renumbered.
        let lines = try String(contentsOf: Self.tour, encoding: .utf8).split(separator: "\n").map(String.init)
        var longer = lines.filter { !$0.hasPrefix(#"{"type":"trailer""#) }
        let turns = lines.filter { $0.hasPrefix(#"{"type":"turn""#) }
        for round in 1...20 {
            for turn in turns {
                let sequence = try #require(turn.firstRange(of: #/"seq":(\d+)/#))
                let number = Int(turn[sequence].dropFirst(6))! + round * 25
                longer.append(turn.replacingCharacters(in: sequence, with: #""seq":\#(number)"#))
            }
        }
        let text = longer.joined(separator: "\n") + "\n"
        let trace = try TraceFile.parse(text)
        let other = try TraceFile.parse(text)
        #expect(trace.turnCount > 256)
        #expect(try TraceComparison(trace, other).agrees)
        trace.cancellation = { true }
        #expect(throws: TraceFile.cancelled) { try TraceComparison(trace, other) }
        trace.cancellation = nil
        other.cancellation = { true }
        #expect(throws: TraceFile.cancelled) { try TraceComparison(trace, other) }
    }
}
