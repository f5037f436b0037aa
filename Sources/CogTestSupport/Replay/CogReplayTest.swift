public import CogScripting
import CogTrace
import CogTraceFormat
import CogTraceStore
import Foundation

/// A recording as a test of today's code: what a file `coginspect`'s `export test` writes runs.
/// It assembles the app with the assembly the test names, feeds the recording's inputs in order
/// (source writes by label with their recorded values, async results, mechanism turns as
/// recorded), and checks what the recording shows after each step. A divergence throws
/// `CogReplayDivergence`, after writing the recording and the replay's own trace where the
/// test's traces go (`COG_TRACE_DIR`), so `diff --trace` opens at the step.
///
/// ```swift
/// @Test func checkout() async throws {
///     try await CogReplayTest(name: "checkout", recording: Self.recording).run(TipJarAssembly.self)
/// }
/// ```
public struct CogReplayTest {
    /// The test's name, which names the traces a failure leaves.
    public let name: String
    /// The recording, as the trace file's text.
    public let recording: String
    /// What is compared after each step.
    public let check: CogReplayCheck
    /// The recorded turns checked; every turn when nil. Earlier turns are still fed.
    public let turns: ClosedRange<Int>?
    /// Declarations whose recorded values cannot be rebuilt; replay leaves them to the app.
    public let skipping: [String]

    /// A replay test of `recording`.
    public init(
        name: String, recording: String, check: CogReplayCheck = .derived, turns: ClosedRange<Int>? = nil,
        skipping: [String] = []
    ) {
        self.name = name
        self.recording = recording
        self.check = check
        self.turns = turns
        self.skipping = skipping
    }

    /// Replays the recording on the app `assembly` assembles.
    /// - Throws: `CogReplayDivergence` at the first step that differs; `ReplayError` when the
    ///   replay cannot run, listing the labels the code no longer has.
    public func run<Assembly: CogReplayAssembly>(_ assembly: Assembly.Type) async throws {
        let trace: TraceFile
        do {
            trace = try TraceFile.parse(recording)
        } catch {
            throw ReplayError("the recording in '\(name)' could not be read: \(error)")
        }
        var replay = try CogReplay(recording: trace)
        replay.skipping = Set(skipping)
        let labels = CogReplayLabels(recording: trace, skipping: replay.skipping)
        let seeded = try labels.missingSeeds(among: Assembly.declarations)
        guard seeded.isEmpty else { throw Self.missing(seeded, in: Assembly.self) }
        let target = try assembly.makeTarget(title: "\(name) (replay)", seeds: replay.seeds)
        let missing = try labels.missing(in: target)
        guard missing.isEmpty else { throw Self.missing(missing, in: Assembly.self) }
        let (result, divergence) = try await replay.divergence(
            on: target, checking: check, turns: turns.map { TurnNumber($0.lowerBound)...TurnNumber($0.upperBound) })
        guard var divergence else { return }
        let paths = leaveTraces(replayed: target.recorder.traceText())
        divergence.recordingPath = paths?.recording
        divergence.replayPath = paths?.replay
        _ = result
        throw divergence
    }

    /// The error for labels the recording names and the code does not have.
    private static func missing(_ labels: [String], in assembly: Any.Type) -> ReplayError {
        let list = labels.map { "'\($0)'" }.joined(separator: ", ")
        return ReplayError(
            "the code has no \(labels.count == 1 ? "state" : "states") \(list) that the recording names; "
                + "add \(labels.count == 1 ? "it" : "them") to \(assembly).declarations, or record again")
    }

    /// Writes the recording and the replay's trace beside the test's other traces; nil when the
    /// directory cannot be written (the divergence still fails the test).
    private func leaveTraces(replayed: String) -> (recording: String, replay: String)? {
        let directory = CogTraceOptions().overridden().directory
        let stem = name.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }
        let recordingPath = "\(directory)/\(String(stem)).recording.cogtrace"
        let replayPath = "\(directory)/\(String(stem)).replay.cogtrace"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try SafeFile.write(Array(recording.utf8), to: recordingPath, replacing: true)
            try SafeFile.write(Array(replayed.utf8), to: replayPath, replacing: true)
        } catch {
            return nil
        }
        return (recordingPath, replayPath)
    }
}
