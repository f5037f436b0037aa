import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

@testable import CogInspector

/// `why` at every turn, for every state, of every committed recording: each answer is a tree
/// whose every leaf is a root, and every recompute names a dependency that the recorded edges
/// show the run read and whose recorded value changed since that state's previous run. The
/// oracle for the second half replays the trace's events itself, in order, without the engine.
@Suite("why reaches a root, every time")
struct WhyPropertyTests {
    static let recordings = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Recordings")
    static let names = ["tour", "map", "screens", "stale-refresh", "switching", "heat-advisory", "service-outage"]

    /// What the oracle knows of one recompute: what the run read, and which reads changed since
    /// the previous run of the same state.
    struct Run {
        let reads: [NodeID]
        let changed: Set<NodeID>
    }

    /// Replays every event in order, keeping each state's dependency list, the place of its last
    /// value change and of its last run, and notes each recompute's reads and changed reads, by
    /// state and turn (a state may run more than once in one turn).
    static func runs(of trace: TraceFile) throws -> [String: [Run]] {
        // The graph the trace starts from (its first keyframe) holds the dependencies of work done
        // before the first turn, such as a test's first read.
        let start = try trace.turnSequences.first.map { try trace.snapshot(after: $0 - 1) }
        var dependencies: [NodeID: [NodeID]] = [:]
        for (id, state) in start?.states ?? [:] { dependencies[id] = state.dependencies }
        var lastChange: [NodeID: Int] = [:]
        var lastRun: [NodeID: Int] = [:]
        var runs: [String: [Run]] = [:]
        var clock = 0
        for sequence in trace.turnSequences {
            let turn = try trace.turn(sequence)
            for (isIdle, events) in [(false, turn.events), (true, turn.after)] {
                for event in events {
                    clock += 1
                    switch event {
                    case .dependencies(let consumer, let producers):
                        dependencies[consumer] = producers
                    case .recompute(let state, _, _, let changed, _):
                        let reads = dependencies[state] ?? []
                        let since = lastRun[state] ?? -1
                        let moved = Set(reads.filter { (lastChange[$0] ?? -2) > since })
                        runs["\(state) \(sequence) \(isIdle)", default: []].append(Run(reads: reads, changed: moved))
                        lastRun[state] = clock
                        if changed { lastChange[state] = clock }
                    case .write(let state, _, _), .seeded(let state, _):
                        lastChange[state] = clock
                    case .stateCreated(let state, let value):
                        if value != nil { lastChange[state] = clock }
                    default:
                        break
                    }
                }
            }
        }
        return runs
    }

    /// Checks one answer; returns what is wrong with it, if anything.
    static func problems(of chain: CausalChain, runs: [String: [Run]], start: Set<NodeID>) -> [String] {
        var found: [String] = []
        if !chain.endsInRoots { found.append("a leaf is not a root: \(chain.textLines)") }
        for link in chain.links where link.cause == .heldSinceStart && !start.contains(link.state.id) {
            found.append("\(link.line): not in the graph the trace starts from")
        }
        for link in chain.links where link.sameAs == nil {
            guard link.cause == .recomputed else { continue }
            guard let trigger = link.trigger?.id, let turn = link.turn else {
                found.append("a recompute names no dependency: \(link.line)")
                continue
            }
            let candidates = runs["\(link.state.id) \(turn.turn) \(turn.afterTurn)"] ?? []
            if !candidates.contains(where: { $0.reads.contains(trigger) && $0.changed.contains(trigger) }) {
                found.append(
                    "\(link.line): the recorded runs read \(candidates.map(\.reads)), changed \(candidates.map(\.changed))"
                )
            }
        }
        return found
    }

    /// The same checks on the `--json` form of a `why` document: every leaf's `root` is true,
    /// and every `recomputed` link's trigger passes the oracle.
    static func jsonProblems(of document: String, runs: [String: [Run]]) -> [String] {
        guard let parsed = try? JSONParser.parse(document),
            parsed["schemaVersion"]?.intValue == ReportRenderer.jsonSchemaVersion,
            let chain = parsed["result"]?.arrayValue?.first?["chain"], let links = chain["links"]?.arrayValue
        else { return ["not a why document: \(document)"] }
        var found: [String] = []
        let parents = Set(links.compactMap { $0["parent"]?.intValue })
        for (index, link) in links.enumerated() {
            let isLeaf = !parents.contains(index) && link["sameAs"]?.intValue == nil && link["causesCut"] != .bool(true)
            if isLeaf, link["root"] != .bool(true) {
                found.append("json leaf \(index) is not a root: \(link.jsonText)")
            }
            guard link["cause"]?.stringValue == "recomputed", link["sameAs"]?.intValue == nil else { continue }
            guard let state = link["state"]?["id"]?.intValue, let trigger = link["trigger"]?["id"]?.intValue,
                let turn = link["turn"]?["turn"]?.intValue, let after = link["turn"]?["afterTurn"]?.boolValue
            else {
                found.append("json recompute names no dependency: \(link.jsonText)")
                continue
            }
            let candidates = runs["\(NodeID(state)) \(TurnNumber(turn)) \(after)"] ?? []
            if !candidates.contains(where: {
                $0.reads.contains(NodeID(trigger)) && $0.changed.contains(NodeID(trigger))
            }) {
                found.append("json recompute's trigger is not a changed read: \(link.jsonText)")
            }
        }
        return found
    }

    /// Asks `why` of every state that exists at every turn, as a user would type it, and checks
    /// the typed answer and its JSON.
    static func check(
        _ trace: TraceFile, name traceName: String, depth: Int? = 1_000
    ) throws -> (answers: Int, short: [String]) {
        let session = InspectorSession(trace: trace, source: traceName)
        let runs = try runs(of: trace)
        let renderer = ReportRenderer()
        var answers = 0
        var short: [String] = []
        let start = Set(try trace.turnSequences.first.map { try trace.snapshot(after: $0 - 1).states.keys } ?? [])
        let registrations = Set(session.context().timeline.registrationNames.values).sorted()
        for turn in trace.turnSequences {
            let states = trace.states.keys.sorted().filter { session.context().absence(of: $0, at: turn) == nil }
            for name in states.map({ session.context().label($0) }) + registrations {
                let label = name.replacingOccurrences(of: "'", with: "'\\''")
                let command = "why '\(label)' @\(turn)" + (depth.map { " --depth \($0)" } ?? "")
                let result = try #require(try session.execute(command))
                guard case .causalChain(let chain) = result.report.first else {
                    // A reaction that has not run yet has nothing to explain.
                    if registrations.contains(name), case .message = result.report.first { continue }
                    short.append("\(label): '\(command)' gave no chain: \(result.report)")
                    continue
                }
                answers += 1
                let problems =
                    problems(of: chain, runs: runs, start: start) + jsonProblems(of: renderer.json(result), runs: runs)
                short += problems.map { "\(traceName) @\(turn) \(name): \($0)" }
            }
        }
        return (answers, short)
    }

    @Test(arguments: names)
    func everyAnswerOfARecordingEndsInRoots(_ name: String) throws {
        let trace = try TraceFile.load(contentsOf: Self.recordings.appendingPathComponent("\(name).cogtrace"))
        let (answers, short) = try Self.check(trace, name: name)
        #expect(answers > 50, "\(name): only \(answers) answers")
        #expect(
            short.isEmpty,
            "\(short.count) of \(answers) answers stop short:\n\(short.prefix(10).joined(separator: "\n"))")
    }

    /// The default answer (one screen) ends in roots too, or says where it cut.
    @Test func theDefaultAnswerEndsInRootsOrSaysWhatItCut() throws {
        let trace = try TraceFile.load(contentsOf: Self.recordings.appendingPathComponent("tour.cogtrace"))
        let (_, short) = try Self.check(trace, name: "tour", depth: nil)
        #expect(short.isEmpty, "\(short.prefix(5))")
    }
}

extension WhyPropertyTests {
    /// This test bundle's own executable, which holds the deliberately failing demo tests.
    static var testBundle: URL {
        URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
    }

    /// The traces the project's own failing-test examples write (`DeliberateFailures.swift`,
    /// run again with `COG_TRACE_DEMO=1`), Swift Testing's and XCTest's.
    static func demoTraces() throws -> [(name: String, trace: TraceFile)] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("why-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        for arguments in [
            ["--testing-library", "swift-testing", "--filter", "DemoTraceTests|DemoMidwayTests"],
            ["CogTestingTests.DemoXCTraceTests"],
        ] {
            let process = Process()
            process.executableURL = testBundle
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["COG_TRACE_DEMO"] = "1"
            environment["COG_TRACE_DIR"] = directory.path
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        return try names.map { ($0, try TraceFile.load(contentsOf: directory.appendingPathComponent($0))) }
    }

    @Test(.timeLimit(.minutes(5)))
    func everyAnswerOfAFailingTestsTraceEndsInRoots() throws {
        let traces = try Self.demoTraces()
        #expect(traces.count >= 4, "the demo wrote \(traces.map(\.name))")
        var total = 0
        for (name, trace) in traces {
            let (answers, short) = try Self.check(trace, name: name)
            total += answers
            #expect(short.isEmpty, "\(short.prefix(10).joined(separator: "\n"))")
        }
        #expect(total >= 12, "only \(total) answers")
    }
}

/// The answers that say why in other words: `history`'s reasons and `deps`' marks agree with
/// `why` at every turn of every recording.
@Suite("why agrees with history and deps")
struct WhyAgreementTests {
    /// Each history row's reason is the sentence `why` gives for the same step, asked at the
    /// row's turn (where that row is the turn's last change of the state).
    @Test(arguments: WhyPropertyTests.names)
    func historyReasonsAreWhySentences(_ name: String) throws {
        let url = WhyPropertyTests.recordings.appendingPathComponent("\(name).cogtrace")
        let session = InspectorSession(trace: try TraceFile.load(contentsOf: url), source: name)
        var compared = 0
        for state in session.trace.states.keys.sorted() {
            guard case .table(_, let rows) = session.context().stateHistory(of: state, field: nil, through: nil).first
            else {
                continue
            }
            var lastRowOfTurn: [TurnNumber: [Cell]] = [:]
            for row in rows { if case .turn(let turn) = row[0] { lastRowOfTurn[turn.turn] = row } }
            for (turn, row) in lastRowOfTurn {
                guard case .text(let reason) = row[2], row[1] != .absent else { continue }
                let link = session.context().causalChain(of: state, WhyOptions(turn: turn)).links[0]
                #expect(link.explanation == reason, "\(name) \(session.context().label(state)) @\(turn)")
                compared += 1
            }
        }
        #expect(compared > 10)
    }

    /// Where `why` says a state recomputed in the cursor's turn because X changed, `deps` marks X
    /// as changed before the last run.
    @Test(arguments: WhyPropertyTests.names)
    func depsMarksTheTriggerWhyNames(_ name: String) throws {
        let url = WhyPropertyTests.recordings.appendingPathComponent("\(name).cogtrace")
        let session = InspectorSession(trace: try TraceFile.load(contentsOf: url), source: name)
        var compared = 0
        for turn in session.turns {
            try session.move(to: turn)
            for state in session.trace.states.keys.sorted() where session.context().absence(of: state, at: turn) == nil
            {
                let link = session.context().causalChain(of: state).links[0]
                guard link.cause == .recomputed, link.turn?.turn == turn, let trigger = link.trigger else { continue }
                let result = try session.execute("deps '\(session.context().label(state))'")
                guard case .table(_, let rows) = result?.report.first else { continue }
                let row = rows.first { $0[0] == .state(trigger) }
                #expect(row?[2] == .bool(true), "\(name) @\(turn) \(session.context().label(state)): \(rows)")
                compared += 1
            }
        }
        #expect(compared > 3)
    }
}
