import CogTraceFormat
import CogTraceStore

extension CommandContext {
    /// What an answer of a command of `scope` must warn of, from what the command read: the
    /// undecodable turns it had to leave out, the turns missing from the file's numbering, the
    /// keyframes the turns after them contradict, and the ids the trace never declared. A
    /// command that spans the recording hears of every turn; the others of those up to the cursor.
    /// `streamed`: the answer is a stream of rows, which says the undecodable turns it meets itself.
    func warnings(for scope: AnswerScope, streamed: Bool = false) -> [Report] {
        let limit = scope == .wholeRecording ? nil : cursor
        var warnings: [Report] = []
        // Checked first, so the undecodable turns it finds are said with those the answer met.
        if scope != .session, trace.checksStructureWithEveryAnswer { _ = trace.checkStructure() }
        if timelineRead != nil || !searchedUndecodable.isEmpty {
            warnings += undecodableWarnings(through: limit)
        }
        guard scope != .session else { return warnings }
        warnings += structureWarnings(through: limit, streamed: streamed)
        warnings += missingTurnWarnings(through: limit)
        warnings += keyframeWarnings(through: limit)
        if !undeclaredNamed.isEmpty {
            let ids = undeclaredNamed.sorted().prefix(5).map { "#\($0)" }.joined(separator: ", ")
            let more = undeclaredNamed.count > 5 ? " and \(undeclaredNamed.count - 5) more" : ""
            warnings.append(
                .warning(
                    "\(ids)\(more) named by the trace but never declared (no state record or registration); "
                        + "lines may be missing from the file"))
        }
        // One fact found two ways (an undecodable turn the answer met and the structure check
        // found) is said once.
        var said = Set<String>()
        return warnings.filter { report in
            guard case .warning(let text) = report else { return true }
            return said.insert(text).inserted
        }
    }

    /// Warnings for an answer built from the timeline up to turn `limit` (all turns when nil):
    /// one per undecodable turn it had to leave out, naming the turn and its line.
    func undecodableWarnings(through limit: TurnNumber? = nil) -> [Report] {
        Self.undecodableWarnings(
            (timelineRead?.undecodable ?? []) + searchedUndecodable + (trace.checkedStructure?.undecodable ?? []),
            through: limit)
    }

    /// Warnings for the structural damage of the records up to turn `limit` (all when nil),
    /// each naming its line: checked with every answer on a trace small enough
    /// (`checksStructureWithEveryAnswer`), else once `info` or the background index checked it.
    /// Undecodable turns are said in the words of `undecodableWarnings`.
    func structureWarnings(through limit: TurnNumber? = nil, streamed: Bool = false) -> [Report] {
        guard let check = trace.checkedStructure else { return [] }
        let shown = check.issues.filter { issue in
            limit.map { issue.turn <= $0 } ?? true
        }.filter { issue in
            !check.undecodable.contains { $0.turn == issue.turn && issue.message.contains("cannot be decoded") }
        }
        let more = shown.count > 5 ? [Report.warning("and \(shown.count - 5) more damaged records")] : []
        var warnings = shown.prefix(5).map { Report.warning("line \($0.line): \($0.message)") } + more
        // An undecodable turn the answer did not meet is said too (one it met is said once, as
        // `warnings(for:)` drops repeats); a streamed answer says those its stream met itself.
        if !streamed {
            warnings += Self.undecodableWarnings(check.undecodable, through: limit)
        }
        return warnings
    }

    /// Warnings for the undecodable turns `all` up to turn `limit` (all when nil), each turn once.
    static func undecodableWarnings(
        _ all: [(turn: TurnNumber, error: TraceReadError)], through limit: TurnNumber?
    ) -> [Report] {
        var seen = Set<TurnNumber>()
        let missing = all.filter { $0.turn <= (limit ?? $0.turn) && seen.insert($0.turn).inserted }
            .sorted { $0.turn < $1.turn }
        guard !missing.isEmpty else { return [] }
        let shown = missing.prefix(5).map { turn, error in
            .warning(
                "turn \(turn) could not be decoded (\(error)); this answer leaves it out and may be wrong"
            ) as Report
        }
        let more = missing.count > 5 ? [Report.warning("and \(missing.count - 5) more undecodable turns")] : []
        return shown + more
    }

    /// Warnings for an answer built from the turns up to `limit` (all when nil) when the file's
    /// numbering skips turns before it: the answer cannot include what those turns did.
    func missingTurnWarnings(through limit: TurnNumber? = nil) -> [Report] {
        trace.missingTurns.filter { $0.first <= (limit ?? $0.first) }.map { gap in
            .warning("\(gap) (line \(gap.line)); this answer leaves them out and may be wrong")
        }
    }

    /// Warnings for an answer built from the graph past a keyframe the turns after it contradict:
    /// the reader replayed from an earlier keyframe instead, so the answer stands, but the file
    /// is not what a writer wrote.
    func keyframeWarnings(through limit: TurnNumber? = nil) -> [Report] {
        // A keyframe before turn N stands for the graph just after turn N - 1.
        trace.keyframeDisagreements.filter { $0.before.rawValue <= (limit?.rawValue ?? Int.max - 1) &+ 1 }.map {
            disagreement in
            let name = trace.states[disagreement.state]?.label ?? "state \(disagreement.state)"
            return .warning(
                "\(disagreement.description(naming: name)); answers replay from an earlier keyframe instead")
        }
    }
}
