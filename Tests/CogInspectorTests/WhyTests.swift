import CogTraceFormat
import Foundation
import Testing

@testable import CogInspector

/// `why` walks back to the exact source write, checked against the recording's own events.
@Suite("why and history")
struct WhyTests {
    private static let recordings = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Recordings")

    private func session(_ name: String) throws -> InspectorSession {
        let url = Self.recordings.appendingPathComponent("\(name).cogtrace")
        return InspectorSession(trace: try TraceFile.load(contentsOf: url), source: name)
    }

    @Test func whyEndsAtTheWriteThatReWiredAKeyedDependency() throws {
        let session = try session("switching")
        let here = try #require(session.trace.stateID(labelled: "weather.isNiceHere"))
        let currentZip = try #require(session.trace.stateID(labelled: "weather.currentZip"))
        var checked = 0
        for sequence in session.turns {
            try session.move(to: sequence)
            let chain = session.causalChain(of: here)
            guard let source = chain.last, let event = source.event, let sourceTurn = source.turn?.turn,
                case .write(let state, _, let new) = event, state == currentZip
            else {
                continue
            }
            let turn = try session.trace.turn(sourceTurn)
            #expect(turn.events.contains(event), "the named write is in turn \(sourceTurn)")
            let lastZipWrite = session.turns.filter { $0 <= sequence }.last { candidate in
                (try? session.trace.turn(candidate))?.events.contains { event in
                    if case .write(currentZip, _, _) = event { true } else { false }
                } ?? false
            }
            #expect(sourceTurn == lastZipWrite, "at turn \(sequence) the chain names the latest ZIP write")
            #expect(new.text == (try session.trace.snapshot(after: sequence)).states[currentZip]?.value?.text)
            checked += 1
        }
        // The switching recording rewires isNiceHere by ZIP writes at several turns.
        #expect(checked >= 3, "only \(checked) turns' chains ended at a ZIP write")
    }

    @Test func whyThroughAnAsyncResultNamesTheCompletionTurn() throws {
        let session = try session("heat-advisory")
        let nice = try #require(session.trace.stateID(labelled: "weather.isNice[10001]"))
        let forecast = try #require(session.trace.stateID(labelled: "weather.forecast[10001]"))
        let chain = session.causalChain(of: nice)
        let last = try #require(chain.last)
        #expect(last.state.id == forecast)
        #expect(last.cause == .published)
        guard case .write(forecast, _, let reading) = last.event else {
            Issue.record("the chain does not end at the forecast's published value: \(chain.map(\.line))")
            return
        }
        #expect(reading.text == "clear 94°F heat advisory")
        #expect(try session.trace.turn(try #require(last.turn?.turn)).name == "weather.forecast[10001] success")
        #expect(
            chain.first?.line.hasPrefix("weather.isNice[10001] = false: recomputed to the same value in turn") == true)
    }

    /// An async state's selector may run again after its result is published, with no
    /// dependency changed and the same value: that run is not why the value holds, the
    /// publication is.
    @Test func aRunThatGaveBackTheSameValueUnaskedIsNotTheReason() throws {
        let lines = [
            #"{"type":"header","format":"cogtrace","version":"1.1","minReader":"1.0","producer":"test","run":"r","title":"t","clock":"virtual","mode":"ring","capacity":10,"keyframeEvery":100}"#,
            #"{"type":"state","id":1,"label":"forecast","decl":"forecast","key":null,"shape":"async","valueType":"Int","lifetime":"app","policy":"latest"}"#,
            #"{"type":"state","id":2,"label":"nice","decl":"nice","key":null,"shape":"automatic","valueType":"Bool","lifetime":"app","policy":null}"#,
            #"{"type":"turn","seq":1,"name":"forecast success","origin":"asyncCompletion","cause":null,"start":0,"duration":0,"events":[{"e":"write","s":1,"old":{"t":"0","j":0},"new":{"t":"75","j":75}},{"e":"recompute","s":2,"old":{"t":"false","j":false},"new":{"t":"true","j":true},"changed":true,"by":1}]}"#,
            #"{"type":"idle","after":1,"events":[{"e":"recompute","s":1,"old":{"t":"75","j":75},"new":{"t":"75","j":75},"changed":false,"by":null}]}"#,
            #"{"type":"trailer","ok":true,"turns":1,"evicted":0,"dropped":0,"keyframes":0}"#,
        ]
        let session = InspectorSession(trace: try TraceFile.parse(lines.joined(separator: "\n") + "\n"), source: "t")
        let chain = session.causalChain(of: try #require(session.trace.stateID(labelled: "nice")))
        #expect(chain.map(\.state.label) == ["nice", "forecast"])
        #expect(chain.last?.explanation == "published in turn 1 (forecast success), a result of its async work")
        #expect(chain.last?.turn == TurnReference(1))
    }

    @Test func unknownStatesGetASuggestion() throws {
        let session = try session("tour")
        #expect(throws: InspectorError("unknown state 'weather.isNise[10001]'; did you mean 'weather.isNice[10001]'?"))
        {
            _ = try session.execute("why weather.isNise[10001]")
        }
        #expect(throws: InspectorError("unknown command 'hsitory'; did you mean 'history'?")) {
            _ = try session.execute("hsitory weather.isNiceHere")
        }
    }

    @Test func commandsTakeUniquePrefixesAndAliases() throws {
        let session = try session("tour")
        #expect(try session.execute("hist weather.currentZip")?.command == "history")
        #expect(try session.execute("go 3")?.command == "goto")
        #expect(session.cursor == 3)
        #expect(throws: InspectorError("'st' could be step, state; type more of it")) {
            _ = try session.execute("st")
        }
    }
}
