import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

@testable import CogInspector

/// Reactions and watches as subjects of `history`, `turns --touching`, `why`, `get` and `deps`,
/// checked against the recording's own events.
@Suite("Reactions as subjects")
struct ReactionTests {
    private static let tour = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Recordings/tour.cogtrace")

    private func session() throws -> InspectorSession {
        InspectorSession(trace: try TraceFile.load(contentsOf: Self.tour), source: "tour")
    }

    private func table(_ result: CommandResult?) throws -> (columns: [String], rows: [[Cell]]) {
        for part in result?.report ?? [] {
            if case .table(let columns, let rows) = part { return (columns, rows) }
        }
        Issue.record("no table in \(String(describing: result))")
        return ([], [])
    }

    /// The alert's registration id and every turn (with whether it fired, and the value) in
    /// which the recording says it ran.
    private func recordedRuns(in session: InspectorSession) throws -> (id: NodeID, runs: [(TurnNumber, TraceValue?)]) {
        var id: NodeID?
        var runs: [(TurnNumber, TraceValue?)] = []
        for sequence in session.turns {
            let turn = try session.trace.turn(sequence)
            for event in turn.events + turn.after {
                switch event {
                case .registered(let registration, "Weather.niceAlert", _): id = registration
                case .reactionRun(let registration) where registration == id: runs.append((sequence, nil))
                case .watchRun(let registration, _, let new) where registration == id: runs.append((sequence, new))
                default: break
                }
            }
        }
        return (try #require(id), runs)
    }

    @Test func historyListsEveryRunAndEveryFiringOfAWatch() throws {
        let session = try session()
        let (_, runs) = try recordedRuns(in: session)
        let (columns, rows) = try table(try session.execute("history Weather.niceAlert"))
        #expect(columns == ["turn", "event", "value", "reads", "because"])
        let shown = rows.filter { $0[1] == .text("ran") || $0[1] == .text("fired") }
        #expect(shown.count == runs.count)
        #expect(runs.count == 17, "nine evaluations and eight firings in the tour")
        for (row, run) in zip(shown, runs) {
            guard case .turn(let reference) = row[0] else {
                Issue.record("row without a turn: \(row)")
                continue
            }
            #expect(reference.turn == run.0)
            #expect(row[1] == .text(run.1 == nil ? "ran" : "fired"))
            #expect(row[2] == (run.1.map { .value($0) } ?? .absent))
        }
        let firedTrue = shown.filter { $0[2] == .value(TraceValue(text: "true", json: .bool(true))) }.compactMap {
            if case .turn(let reference) = $0[0] { reference.turn } else { nil }
        }
        #expect(firedTrue == [6, 11, 18, 22], "the alert says 'nice' at the turns docs/inspector.md names")
        #expect(shown.first?[4] == .text("first run"))
        let here = try #require(session.trace.stateID(labelled: "weather.isNiceHere"))
        let reason = Cell.list([.state(StateReference(id: here, label: "weather.isNiceHere"))])
        #expect(shown.dropFirst().allSatisfy { $0[3] == reason && $0[4] == reason })
    }

    @Test func turnsTouchingAReactionAreTheTurnsWithItsEvents() throws {
        let session = try session()
        let (id, _) = try recordedRuns(in: session)
        let expected = try session.turns.filter { sequence in
            let turn = try session.trace.turn(sequence)
            return (turn.events + turn.after).contains { $0.registration == id || $0.state == id }
        }
        let (_, rows) = try table(try session.execute("turns --touching Weather.niceAlert"))
        let listed = rows.compactMap { row -> TurnNumber? in
            if case .turn(let reference) = row[0] { reference.turn } else { nil }
        }
        #expect(listed == expected)
        #expect(listed.count == 9)
    }

    @Test func whyExplainsARunThroughTheChangeThatCausedIt() throws {
        let session = try session()
        try session.move(to: 11)
        let result = try session.execute("why Weather.niceAlert")
        guard case .causalChain(let chain) = result?.report.first else {
            Issue.record("no chain: \(String(describing: result))")
            return
        }
        let links = chain.links
        #expect(links.map(\.state.label) == ["Weather.niceAlert", "weather.isNiceHere", "weather.currentZip"])
        #expect(links.first?.cause == .reacted)
        #expect(links.first?.turn?.turn == 11)
        #expect(links.last?.cause == .written)
    }

    @Test func getAndDepsDescribeAReactionAtTheCursor() throws {
        let session = try session()
        try session.move(to: 11)
        guard case .fields(let fields) = try session.execute("get Weather.niceAlert")?.report.first else {
            Issue.record("get gave no fields")
            return
        }
        let byName = Dictionary(fields.map { ($0.name, $0.value) }) { first, _ in first }
        #expect(byName["kind"] == .text("watch"))
        #expect(byName["runs"] == .integer(4), "turns 5+, 6, 10 and 11")
        #expect(byName["fired"] == .integer(3))
        #expect(byName["last fired"] == .turn(TurnReference(11)))
        let (_, rows) = try table(try session.execute("deps Weather.niceAlert"))
        #expect(
            rows.map { $0[0] } == [
                .state(session.context().reference(try #require(session.trace.stateID(labelled: "weather.isNiceHere"))))
            ])
    }

    @Test func commandsThatTakeOnlyStatesSayWhatAReactionIs() throws {
        let session = try session()
        #expect(throws: InspectorError.self) { try session.execute("async Weather.niceAlert") }
        do {
            _ = try session.execute("leases Weather.niceAlert")
            Issue.record("leases accepted a watch")
        } catch {
            #expect(error.message.contains("is a watch, not a state"))
        }
        do {
            _ = try session.execute("history Weather.niceAlrt")
            Issue.record("a misspelt name was accepted")
        } catch {
            #expect(error.message == "unknown reaction 'Weather.niceAlrt'; did you mean 'Weather.niceAlert'?")
        }
    }

    @Test func getReadsOneFieldOfAValue() throws {
        let session = try session()
        try session.move(to: 11)
        guard case .fields(let fields) = try session.execute("get weather.forecast[10001].temperatureF")?.report.first
        else {
            Issue.record("get gave no fields")
            return
        }
        let graph = try session.context().graph()
        let forecast = try #require(session.trace.stateID(labelled: "weather.forecast[10001]"))
        let recorded = try #require(graph.states[forecast]?.value?.json?.value(atPath: ".temperatureF"))
        #expect(fields.last == Field("value", .value(TraceValue(text: recorded.jsonText, json: recorded))))
        do {
            _ = try session.execute("get weather.forecast[10001].bogus")
            Issue.record("a missing field was accepted")
        } catch {
            #expect(error.message.contains("its fields are condition, heatAdvisory, temperatureF"))
        }
    }
}
