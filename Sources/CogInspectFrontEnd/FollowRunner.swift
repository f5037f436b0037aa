import CogCommandLine
import CogInspector
import CogInspectorExport
import CogTraceFormat
import CogTraceStore
import Foundation

/// `--follow`: waits for the trace to start, and in batch, once the commands ran, prints what
/// the watches see as turns arrive until the trailer, `--until`, an interrupt, or the file
/// changing under it. The engine reads the file; this owns the pace.
struct FollowRunner {
    /// How often the file is looked at.
    static let interval: useconds_t = 20_000

    /// Opens `path` for following, waiting (Ctrl-C stops) while there is no file or no header yet;
    /// a sidecar index (as `index` says) spares reading again the part it covers.
    static func open(_ path: String, memoryBudget: MemoryBudget, index: TraceIndexUse) -> InspectorSession {
        Interrupts.installForBatch()
        let started = ContinuousClock.now
        var toldWaiting = false
        while true {
            let follower: TraceFollower?
            do {
                follower = try TraceFollower.start(
                    URL(fileURLWithPath: path), memoryBudget: memoryBudget, index: index, note: CogInspect.sayIndexNote)
            } catch  where error.isUnopenable {
                CogInspect.fail(error.message, status: .cannotOpenInput)
            } catch {
                CogInspect.fail("'\(path)' is not a valid trace: \(error)", status: .malformedInput)
            }
            if let follower {
                let session = InspectorSession(trace: follower.trace, source: path, catalog: .standard)
                session.follow(follower)
                return session
            }
            if Interrupts.isPending() {
                CogInspect.fail("interrupted while waiting for '\(path)'", status: .interrupted)
            }
            if !toldWaiting, ContinuousClock.now - started > .milliseconds(500) {
                CogInspect.tool.report("waiting for '\(path)' to be written (Ctrl-C stops)")
                toldWaiting = true
            }
            usleep(interval)
        }
    }

    /// `--reopen`: after following `previous` ended with its file changed (or its writer dead),
    /// waits for the file to be another recording than the one read, then opens that.
    static func reopen(
        _ path: String, after previous: InspectorSession, memoryBudget: MemoryBudget, index: TraceIndexUse
    ) -> InspectorSession {
        CogInspect.tool.report("waiting for '\(path)' to be written again (--reopen; Ctrl-C stops)")
        while previous.followedFileIsUnchanged {
            if Interrupts.isPending() {
                CogInspect.fail("interrupted while waiting for '\(path)'", status: .interrupted)
            }
            usleep(interval)
        }
        let session = open(path, memoryBudget: memoryBudget, index: index)
        CogInspect.tool.report("reopened '\(path)': a new recording, \(session.turns.count) turns so far")
        return session
    }

    let session: InspectorSession
    let printer: OutputPrinter
    /// Whether `--until` was given: reaching the trailer without it holding exits 3.
    let hasUntil: Bool
    /// `--reopen`: a changed file is not an error; the caller waits for the new recording.
    var reopens = false

    /// Follows until the end; the exit status.
    func run() -> ExitStatus {
        if hasUntil, session.untilHoldsNow {
            CogInspect.tool.report("the condition holds at turn \(session.turns.last ?? 0) already")
            return .success
        }
        while true {
            if Interrupts.isPending() {
                CogInspect.tool.report("interrupted at turn \(session.turns.last ?? 0)")
                return .interrupted
            }
            if let update = session.pollFollowed(), !update.watchChanges.isEmpty {
                printer.print(CommandResult(command: "watch", report: update.watchChanges.map(Report.watchChange)))
                fflush(nil)
            }
            if let end = session.followEnd { return finish(end) }
            usleep(Self.interval)
        }
    }

    private func finish(_ end: FollowEnd) -> ExitStatus {
        let sentence = end.sentence
        switch end {
        case .untilMet:
            CogInspect.tool.report(sentence)
            return .success
        case .finished:
            CogInspect.tool.report(sentence)
            if hasUntil {
                CogInspect.tool.report("error: the trailer arrived and the --until condition never held")
                return .expectationFailed
            }
            return .success
        case .fileChanged where reopens:
            CogInspect.tool.report(sentence)
            return .success
        case .fileChanged, .malformed:
            CogInspect.tool.report("error: \(sentence)")
            return .failure
        }
    }
}
