import CogTraceFormat
import CogTraceStore
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
            let chain = session.context().causalChain(of: here).links
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
        let chain = session.context().causalChain(of: nice).links
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
            chain.first?.line.hasPrefix("weather.isNice[10001]: false → false, recomputed to the same value in turn")
                == true, "\(chain.map(\.line))")
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
        let chain = session.context().causalChain(of: try #require(session.trace.stateID(labelled: "nice"))).links
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

/// Small traces written by hand, each showing one shape of answer `why` must give.
@Suite("why: first runs, depth, fields and other turns")
struct WhyShapeTests {
    static let header =
        #"{"type":"header","format":"cogtrace","version":"1.1","minReader":"1.0","producer":"test","run":"r","title":"t","clock":"virtual","mode":"ring","capacity":100000,"keyframeEvery":100000}"#

    static func state(_ id: Int, _ label: String, shape: String) -> String {
        #"{"type":"state","id":\#(id),"label":"\#(label)","decl":"\#(label)","key":null,"shape":"\#(shape)","valueType":"Int","lifetime":"app","policy":null}"#
    }

    static func session(_ lines: [String], evicted: Int = 0, turns: Int) throws -> InspectorSession {
        let trailer = #"{"type":"trailer","ok":true,"turns":\#(turns),"evicted":\#(evicted),"dropped":0,"keyframes":0}"#
        let text = ([header] + lines + [trailer]).joined(separator: "\n") + "\n"
        return InspectorSession(trace: try TraceFile.parse(text), source: "t")
    }

    /// A test's `peek` after turn 3 computes `doubled` for the first time: the answer goes on to
    /// what that first run read, with the value read, to the write that gave it.
    @Test func aFirstRunGoesOnToEveryInputItRead() throws {
        let session = try Self.session(
            [
                Self.state(1, "counter", shape: "manual"), Self.state(2, "offset", shape: "manual"),
                Self.state(3, "doubled", shape: "automatic"),
                #"{"type":"turn","seq":1,"name":"create","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"created","s":1,"v":{"t":"0","j":0}},{"e":"created","s":2,"v":{"t":"5","j":5}}]}"#,
                #"{"type":"turn","seq":2,"name":"step","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"write","s":1,"old":{"t":"0","j":0},"new":{"t":"2","j":2}}]}"#,
                #"{"type":"turn","seq":3,"name":"step","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"write","s":1,"old":{"t":"2","j":2},"new":{"t":"3","j":3}}]}"#,
                #"{"type":"idle","after":3,"events":[{"e":"created","s":3,"v":null},{"e":"deps","s":3,"ps":[1,2]},{"e":"recompute","s":3,"old":null,"new":{"t":"11","j":11},"changed":true,"by":null}]}"#,
            ], turns: 3)
        let chain = session.context().causalChain(of: 3)
        #expect(
            chain.textLines == [
                "doubled: nil → 11, computed for the first time after turn 3",
                "├ counter: 2 → 3, written in turn 3 (step), origin op",
                "└ offset = 5, its initial value when it was created in turn 1 (create)",
            ])
        #expect(chain.links.map(\.role) == [.subject, .read, .read])
        #expect(chain.links.map(\.parent) == [nil, 0, 0])
        #expect(chain.endsInRoots)
    }

    /// A chain 10,000 links long: the default answer shows one screen and says what `--depth`
    /// would show; `--depth 10000` reaches the write at the far end without recursing.
    @Test func aTenThousandLinkChainAnswersOneScreenByDefaultAndAllOnRequest() throws {
        let length = 10_000
        var lines = (1...(length + 1)).map { Self.state($0, "s\($0)", shape: $0 == 1 ? "manual" : "automatic") }
        lines.append(
            #"{"type":"turn","seq":1,"name":"build","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"created","s":1,"v":{"t":"0","j":0}}"#
                + (2...(length + 1)).map {
                    #",{"e":"deps","s":\#($0),"ps":[\#($0 - 1)]},{"e":"recompute","s":\#($0),"old":null,"new":{"t":"0","j":0},"changed":true,"by":null}"#
                }.joined() + "]}")
        lines.append(
            #"{"type":"turn","seq":2,"name":"poke","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"write","s":1,"old":{"t":"0","j":0},"new":{"t":"1","j":1}}"#
                + (2...(length + 1)).map {
                    #",{"e":"recompute","s":\#($0),"old":{"t":"0","j":0},"new":{"t":"1","j":1},"changed":true,"by":\#($0 - 1)}"#
                }.joined() + "]}")
        let session = try Self.session(lines, turns: 2)
        let last = NodeID(length + 1)
        let screen = try #require(try session.execute("why s\(length + 1)"))
        guard case .causalChain(let short) = screen.report.first else {
            Issue.record("no chain")
            return
        }
        #expect(short.links.count <= CommandContext.linksPerScreen)
        #expect(short.cut == length + 1 - short.links.count)
        #expect(
            short.cutNote
                == "\(short.cut) more links lie deeper than level \(short.depthLimit); --depth \(length) shows them all"
        )
        let whole = session.context().causalChain(of: last, WhyOptions(depth: length))
        #expect(whole.links.count == length + 1)
        #expect(whole.cut == 0)
        #expect(whole.links.last?.line == "s1: 0 → 1, written in turn 2 (poke), origin op")
        #expect(whole.endsInRoots)
        #expect(ReportRenderer().json(CommandResult(command: "why", report: [.causalChain(whole)])).count > length)
    }

    /// A value held since before the ring's first turn says which turns were evicted.
    @Test func aValueFromEvictedTurnsSaysWhichWereEvicted() throws {
        let session = try Self.session(
            [
                Self.state(1, "zip", shape: "manual"),
                #"{"type":"keyframe","before":11,"states":[{"id":1,"v":{"t":"10001","j":"10001"},"ver":1,"mark":"clean","deps":[],"obs":[]}],"registrations":[]}"#,
                #"{"type":"turn","seq":11,"name":"idle","origin":"op","cause":null,"start":0,"duration":0,"events":[]}"#,
            ], evicted: 10, turns: 11)
        let link = try #require(session.context().causalChain(of: 1).links.first)
        #expect(link.cause == .heldSinceStart)
        #expect(link.evicted == 1...10)
        #expect(
            link.line
                == "zip = 10001, held since before turn 11, the first recorded; turns 1..10 were evicted from the ring")
    }

    /// `why STATE.FIELD` and `history STATE.FIELD` follow one field: a write that changed only
    /// another field is passed over. `@N` asks about turn N and leaves the cursor where it is.
    @Test func aFieldQuestionFollowsOnlyThatFieldAndAtTurnLeavesTheCursor() throws {
        let session = try Self.session(
            [
                Self.state(1, "reading", shape: "manual"),
                #"{"type":"turn","seq":1,"name":"first","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"created","s":1,"v":{"t":"a","j":{"temperature":70,"condition":"clear"}}}]}"#,
                #"{"type":"turn","seq":2,"name":"warm","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"write","s":1,"old":{"t":"a","j":{"temperature":70,"condition":"clear"}},"new":{"t":"b","j":{"temperature":75,"condition":"clear"}}}]}"#,
                #"{"type":"turn","seq":3,"name":"cloud","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"write","s":1,"old":{"t":"b","j":{"temperature":75,"condition":"clear"}},"new":{"t":"c","j":{"temperature":75,"condition":"cloudy"}}}]}"#,
            ], turns: 3)
        let result = try #require(try session.execute("why reading.temperature"))
        #expect(ReportRenderer().text(result) == "reading.temperature: 70 → 75, written in turn 2 (warm), origin op")
        let history = try #require(try session.execute("history reading.temperature"))
        #expect(ReportRenderer().text(history).split(separator: "\n").count == 4, "\(ReportRenderer().text(history))")
        let earlier = try #require(try session.execute("why reading @1"))
        #expect(
            ReportRenderer().text(earlier) == "reading = a, its initial value when it was created in turn 1 (first)")
        #expect(session.cursor == 3)
        #expect(throws: InspectorError("no turn 9 in this trace; it has turns 1..3")) {
            _ = try session.execute("why reading @9")
        }
    }
}
