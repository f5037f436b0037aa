import CogTraceFormat
public import CogTraceStore
import Foundation

extension InspectorSession {
    /// Following the trace's file as it is written, once `follow` started it.
    var following: FollowState? { store.following }

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
        store.follow(follower)
    }

    /// Writes the followed file's sidecar index when more of it was read than the index there
    /// covers (see `TraceFollower.saveIndex`); `note` hears where it went.
    public func saveFollowedIndex(note: ((String) -> Void)?) {
        following?.follower.saveIndex(note: note)
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
            following.until = try context().expression(text)
        } catch  where error.message.hasPrefix("unknown state") {
            following.pendingUntil = text
            waiting = "\(error.message); waiting for it to appear"
        }
        do {
            try store.keepLiveGraph()
        } catch {
            throw context().malformed(error)
        }
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
        store.settleBackgroundIndex()
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
            store.extendIndexes()
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
            watches[index].subject = try? context().watchSubject(watches[index].text)
        }
        if let pending = following.pendingUntil, let until = try? context().expression(pending) {
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
}
