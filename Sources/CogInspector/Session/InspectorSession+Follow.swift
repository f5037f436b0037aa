import CogTraceFormat
public import CogTraceStore
import Foundation

extension InspectorSession {
    /// Whether the session is following its trace's file (and has not stopped).
    public var isFollowing: Bool { following != nil && following?.ended == nil }

    /// Why following stopped, once it has.
    public var followEnd: FollowEnd? { following?.ended }

    /// Whether the followed path still names the recording this session read (same file, not
    /// shorter, same first line): a restarted app has not started writing over it yet.
    public var followedFileIsUnchanged: Bool { following?.follower.namesTheFileRead ?? false }

    /// Why following stopped, as the sentence a person reads; nil while it goes on.
    public var followEndNotice: Report? { following?.ended?.report }

    /// Follows the file `follower` reads; its trace must be this session's. A trace that already
    /// has its trailer is followed no further.
    public func follow(_ follower: TraceFollower) {
        precondition(follower.trace === trace, "a follower of another trace")
        following = FollowState(follower: follower)
        if trace.trailer != nil { following?.ended = .finished }
    }

    /// Writes the followed file's sidecar index when more of it was read than the index there
    /// covers (see `TraceFollower.saveIndex`); `note` hears where it went.
    public func saveFollowedIndex(note: ((String) -> Void)?) {
        following?.follower.saveIndex(note: note)
    }

    /// `follow` at the prompt: goes on reading the trace's file from where it was loaded, or,
    /// when a restarted app truncated or replaced it, reads the new recording in its place.
    func startFollowing() throws(InspectorError) -> [Report] {
        if isFollowing { return [.message("already following '\(source)'")] }
        let url = URL(fileURLWithPath: source)
        let ownFileChanged =
            following.map { !$0.follower.namesTheFileRead }
            ?? (trace.trailer == nil && TraceFollower.hasChanged(trace, at: url))
        if ownFileChanged { return try reopenFollowed(url) }
        let follower: TraceFollower
        do {
            follower = try TraceFollower.continuing(trace, at: url)
        } catch {
            throw InspectorError(error.message)
        }
        follow(follower)
        return [.message("following '\(source)'; new turns arrive at the prompt, 'watch EXPR' reports changes")]
    }

    /// Reads the new recording at the session's path in place of the old one, keeping the
    /// watches (evaluated on the new graph).
    private func reopenFollowed(_ url: URL) throws(InspectorError) -> [Report] {
        let follower: TraceFollower?
        do {
            follower = try TraceFollower.start(url)
        } catch {
            throw InspectorError("cannot reopen '\(source)': \(error)")
        }
        guard let follower else {
            throw InspectorError("'\(source)' has no recording yet (no header line); type 'follow' again once it has")
        }
        let watched = watches.map(\.text)
        adopt(follower.trace)
        follow(follower)
        watches = []
        var report: [Report] = [
            .message("reopened '\(source)': a new recording, \(turns.count) turns so far; following it")
        ]
        for text in watched {
            report += (try? addWatch(text)) ?? [.warning("could not watch \(text) in the new recording")]
        }
        return report
    }

    /// Ends following at the first arriving turn where `text` holds (a batch run's `--until`).
    /// An expression naming a state the trace has not named yet waits for it; the returned
    /// sentence says so.
    /// - Throws: `InspectorError` for an expression that cannot be read, or when not following.
    @discardableResult
    public func followUntil(_ text: String) throws(InspectorError) -> String? {
        guard let following else { throw InspectorError("--until needs a followed trace (--follow)") }
        var waiting: String?
        do {
            following.until = try expression(text)
        } catch  where error.message.hasPrefix("unknown state") {
            following.pendingUntil = text
            waiting = "\(error.message); waiting for it to appear"
        }
        try keepLiveGraph()
        return waiting
    }

    /// Whether `until` holds at the newest turn already (so there is nothing to wait for).
    public var untilHoldsNow: Bool {
        guard let following, let until = following.until, let graph = following.liveGraph?.graph else { return false }
        return until.holds(in: graph, turn: nil)
    }

    /// Reads what arrived at the followed file: new turns extend the indexes, the cursor moves
    /// with them while it is on the newest turn, and watches report changes. Nil when not
    /// following.
    public func pollFollowed() -> FollowUpdate? {
        guard let following, following.ended == nil else { return nil }
        var update = FollowUpdate()
        let change: TraceFollower.Change
        settleBackgroundIndex()
        let wasOnNewest = turns.last.map { cursor == $0 } ?? true
        do {
            change = try following.follower.poll()
        } catch {
            update.ended = .malformed("\(error)")
            following.ended = update.ended
            return update
        }
        switch change {
        case .none:
            return update
        case .truncated, .replaced, .rewritten, .removed, .writerEnded:
            update.ended = .fileChanged(change)
        case .grew(let growth):
            extendIndexes()
            update.newTurns = Array(turns[growth.newTurns])
            if let newest = update.newTurns.last {
                if wasOnNewest {
                    cursor = newest
                    update.movedCursor = true
                } else if let pending = following.unannounced {
                    following.unannounced = (pending.first, newest, pending.count + update.newTurns.count)
                } else {
                    following.unannounced = (update.newTurns[0], newest, update.newTurns.count)
                }
            }
            do {
                try evaluateWatches(into: &update)
            } catch {
                update.ended = .malformed("\(error)")
            }
            if update.ended == nil, growth.reachedTrailer { update.ended = .finished }
        }
        following.ended = update.ended
        return update
    }

    /// One line about the turns that arrived while the cursor was elsewhere since the last
    /// notice, or nil when none did; the front end asks when it has time to show it.
    public func takeArrivalNotice() -> Report? {
        guard var pending = following?.unannounced else { return nil }
        following?.unannounced = nil
        // Turns the cursor has reached since they arrived (`last`, `goto`) are shown already.
        if cursor >= pending.last { return nil }
        if cursor >= pending.first, let from = turns.firstIndex(where: { $0 > cursor }),
            let to = turns.lastIndex(of: pending.last)
        {
            pending = (turns[from], pending.last, to - from + 1)
        }
        let turnsText =
            pending.count == 1
            ? "1 new turn (\(pending.first))" : "\(pending.count) new turns (\(pending.first)..\(pending.last))"
        return .message("\(turnsText); 'last' goes to the newest")
    }

    /// Applies the arrived turns to the live graph and notes each watch whose value changed.
    private func evaluateWatches(into update: inout FollowUpdate) throws(TraceReadError) {
        guard let following, var live = following.liveGraph else { return }
        guard !watches.isEmpty || following.until != nil || following.pendingUntil != nil else {
            // Nothing reads the live graph: stop decoding every arriving turn for it.
            following.liveGraph = nil
            return
        }
        defer { following.liveGraph = live }
        for index in watches.indices where watches[index].subject == nil {
            watches[index].subject = try? watchSubject(watches[index].text)
        }
        if let pending = following.pendingUntil, let until = try? expression(pending) {
            following.until = until
            following.pendingUntil = nil
        }
        try live.advance(in: trace) { (step, graph) throws(TraceReadError) in
            let turn: TraceTurn?
            let reference: TurnReference
            let name: String
            switch step {
            case .turn(let decoded):
                turn = decoded
                reference = TurnReference(decoded.sequence)
                name = decoded.name
            case .idle(let sequence):
                turn = nil
                reference = TurnReference(sequence, afterTurn: true)
                name = (try? trace.turnHeading(sequence).name) ?? ""
            }
            for index in watches.indices {
                let value = Watch.evaluate(watches[index].subject, in: graph, turn: turn)
                guard value != watches[index].value else { continue }
                update.watchChanges.append(
                    WatchChange(
                        turn: reference, name: name, watch: watches[index].text, value: value,
                        previous: watches[index].value))
                watches[index].value = value
            }
            if update.ended == nil, let until = following.until, until.holds(in: graph, turn: turn) {
                update.ended = .untilMet(reference.turn)
            }
        }
    }

    /// Starts keeping the graph after the newest turn, which watches and `--until` read.
    private func keepLiveGraph() throws(InspectorError) {
        guard let following, following.liveGraph == nil else { return }
        do {
            following.liveGraph = try LiveGraph(trace: trace)
        } catch {
            throw malformed(error)
        }
    }

    /// `watch EXPR`: reports each change of the expression's value in arriving turns.
    func addWatch(_ text: String) throws(InspectorError) -> [Report] {
        // A finished recording answers once with the value at its end; anything else that ended
        // following (a file changed under it) has no trustworthy end to read.
        if let end = followEnd, end != .finished {
            throw InspectorError("nothing more will arrive: \(end.sentence)")
        }
        guard following != nil else {
            throw InspectorError(
                "nothing arrives in a trace that is not followed; open it with --follow, or type 'follow' first")
        }
        if watches.contains(where: { $0.text == text }) { return [.message("already watching \(text)")] }
        var subject: Watch.Subject?
        var notYet: [Report] = []
        do {
            subject = try watchSubject(text)
        } catch  where error.message.hasPrefix("unknown state") {
            // A followed trace names a state when it is first created: wait for it.
            notYet = [.message("\(error.message); watching for it to appear")]
        }
        try keepLiveGraph()
        let value = following?.liveGraph.map { Watch.evaluate(subject, in: $0.graph, turn: nil) } ?? .absent
        watches.append(Watch(text: text, subject: subject, value: value))
        return notYet + [
            .fields([
                Field("watching", .text(text)), Field("now", value),
                Field("at turn", turns.last.map { .turn(TurnReference($0)) } ?? .absent),
            ])
        ]
    }

    /// `unwatch EXPR` or `unwatch all`.
    func removeWatch(_ text: String) throws(InspectorError) -> [Report] {
        if text == "all" {
            let count = watches.count
            watches.removeAll()
            return [.message(count == 1 ? "removed 1 watch" : "removed \(count) watches")]
        }
        guard let index = watches.firstIndex(where: { $0.text == text }) else {
            let known = watches.map { "'\($0.text)'" }.joined(separator: ", ")
            throw InspectorError(
                "not watching '\(text)'; " + (watches.isEmpty ? "nothing is watched" : "watched: \(known), or 'all'"))
        }
        watches.remove(at: index)
        return [.message("stopped watching \(text)")]
    }

    /// `watch` alone: what is watched, with the values last seen.
    func watchList() -> [Report] {
        guard !watches.isEmpty else { return [.message("nothing is watched; 'watch EXPR' adds one")] }
        return [.table(columns: ["watch", "value"], rows: watches.map { [.text($0.text), $0.value] })]
    }
}
