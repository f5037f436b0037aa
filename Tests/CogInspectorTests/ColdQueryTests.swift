import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

@testable import CogInspector

/// The first `why` walks back from the cursor instead of indexing the trace, which must answer exactly as
/// the index does.
@Suite("Cold queries")
struct ColdQueryTests {
    private static let recordings = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Recordings")
    static let names = ["tour", "map", "screens", "stale-refresh", "switching", "heat-advisory", "service-outage"]

    private func session(_ name: String) throws -> InspectorSession {
        let url = Self.recordings.appendingPathComponent("\(name).cogtrace")
        return InspectorSession(trace: try TraceFile.load(contentsOf: url), source: name)
    }

    private func describe(_ entry: StateTimeline.Entry?) -> String {
        guard let entry else { return "none" }
        return "\(entry.turn) \(entry.isIdle) \(entry.position) \(entry.event?.jsonValue.jsonText ?? "-")"
    }

    /// At every turn, for every state, the walk back finds the decision the index finds.
    @Test(arguments: names)
    func walkingBackFindsWhatTheIndexFinds(_ name: String) throws {
        let walking = try session(name)
        let indexed = try session(name)
        let states = walking.trace.states.keys.sorted()
        for turn in [TurnNumber(0)] + walking.turns {
            for state in states {
                let walked = walking.context().lastDecision(of: state, through: turn)
                #expect(!walking.context().hasTimeline, "the walk built the index")
                let found = indexed.context().timeline.lastDecision(of: state, through: turn)
                #expect(describe(walked) == describe(found), "\(name) \(state) at \(turn)")
            }
        }
    }

    /// `why` at the cursor gives the same chain whether or not the index exists.
    @Test(arguments: names)
    func whyAnswersTheSameBeforeAndAfterTheIndex(_ name: String) throws {
        let fresh = try session(name)
        let warmed = try session(name)
        _ = warmed.context().timeline
        for state in fresh.trace.states.keys.sorted() {
            #expect(fresh.context().causalChain(of: state) == warmed.context().causalChain(of: state))
        }
    }

    /// A first `history` that no command follows (a batch's last) indexes only its state's
    /// events, and answers as it does once the whole index exists: the same rows and warnings.
    /// Asked again it reads that index; a second state gets the whole index.
    @Test(arguments: names)
    func historyAnswersTheSameBeforeAndAfterTheIndex(_ name: String) throws {
        let warmed = try session(name)
        _ = warmed.context().timeline
        let states = try session(name).trace.states.sorted { $0.key < $1.key }
        for (id, state) in states {
            let fresh = try session(name)
            let command = "history \(state.label)"
            #expect(
                try fresh.execute(command, call: CommandCall(isLastCommand: true)) == (try warmed.execute(command)),
                "\(name) \(id)")
            #expect(
                try fresh.execute(command, call: CommandCall(isLastCommand: true)) == (try warmed.execute(command)),
                "\(name) \(id), asked again")
            #expect(
                !fresh.context(CommandCall(isLastCommand: true)).hasTimeline, "the first history built the whole index")
        }
        let fresh = try session(name)
        for (_, state) in states.prefix(2) {
            let command = "history \(state.label)"
            #expect(try fresh.execute(command, call: CommandCall(isLastCommand: true)) == (try warmed.execute(command)))
        }
        #expect(
            fresh.context(CommandCall(isLastCommand: true)).hasTimeline == (states.count > 1),
            "a second state's history builds the whole index")
        // With a command to follow, the first question builds the whole index for both.
        let first = try session(name)
        let state = try #require(states.first?.value)
        #expect(try first.execute("history \(state.label)") == (try warmed.execute("history \(state.label)")))
        #expect(first.context().hasTimeline, "a history that another command follows indexes every state")
    }

    /// `async` reads its state's events from an index of that state alone, and answers as it does
    /// once the whole index exists.
    @Test(arguments: names)
    func asyncAnswersTheSameBeforeAndAfterTheIndex(_ name: String) throws {
        let warmed = try session(name)
        _ = warmed.context().timeline
        let asyncStates = warmed.trace.states.values.filter { $0.shape == .async }.sorted { $0.id < $1.id }
        for state in asyncStates {
            let fresh = try session(name)
            let command = "async \(state.label)"
            #expect(
                try fresh.execute(command, call: CommandCall(isLastCommand: true)) == (try warmed.execute(command)),
                "\(name) \(state.label)")
            #expect(!fresh.context(CommandCall(isLastCommand: true)).hasTimeline, "async built the whole index")
        }
    }

    /// `info` as a batch's last command lists the undecodable turns from a scan that files no
    /// event, and says what it says once the whole index exists; followed by other commands it
    /// builds the whole index for them.
    @Test(arguments: names)
    func infoAnswersTheSameBeforeAndAfterTheIndex(_ name: String) throws {
        let warmed = try session(name)
        _ = warmed.context().timeline
        let last = try session(name)
        #expect(try last.execute("info", call: CommandCall(isLastCommand: true)) == (try warmed.execute("info")))
        #expect(!last.context(CommandCall(isLastCommand: true)).hasTimeline, "info built the whole index")
        let first = try session(name)
        #expect(try first.execute("info") == (try warmed.execute("info")))
        #expect(first.context().hasTimeline, "info that other commands follow indexes every state")
    }
}

/// The index an interactive session builds on another thread answers as one built on demand.
@Suite("Background index")
struct BackgroundIndexTests {
    @Test(arguments: ColdQueryTests.names)
    func theBackgroundIndexAnswersAsTheOneBuiltOnDemand(_ name: String) throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Recordings/\(name).cogtrace")
        let background = InspectorSession(trace: try TraceFile.load(contentsOf: url), source: name)
        let onDemand = InspectorSession(trace: try TraceFile.load(contentsOf: url), source: name)
        background.indexInBackground()
        #expect(background.context().isIndexingInBackground)
        let waited = background.context().timeline
        #expect(background.context().hasTimeline)
        #expect(!background.context().isIndexingInBackground)
        let built = onDemand.context().timeline
        #expect(waited.isComplete)
        for state in background.trace.states.keys.sorted() {
            let left = waited.entries(of: state).map {
                "\($0.turn) \($0.isIdle) \($0.position) \($0.event?.kind ?? "-")"
            }
            let right = built.entries(of: state).map {
                "\($0.turn) \($0.isIdle) \($0.position) \($0.event?.kind ?? "-")"
            }
            #expect(left == right, "\(name) \(state)")
        }
        for command in ["history weather.currentZip", "leases", "async weather.forecast[10001]"] {
            #expect(try background.execute(command) == onDemand.execute(command), "\(name): \(command)")
        }
    }
}
