import CogTraceFormat
import CogTraceStore
import Foundation

extension CommandContext {
    /// `follow` at the prompt: goes on reading the trace's file from where it was loaded, or,
    /// when a restarted app truncated or replaced it, reads the new recording in its place.
    func startFollowing() throws(InspectorError) -> [Report] {
        if store.following.map({ $0.ended == nil }) == true { return [.message("already following '\(source)'")] }
        let url = URL(fileURLWithPath: source)
        let ownFileChanged =
            store.following.map { !$0.follower.namesTheFileRead }
            ?? (trace.trailer == nil && TraceFollower.hasChanged(trace, at: url))
        if ownFileChanged { return try reopenFollowed(url) }
        let follower: TraceFollower
        do {
            follower = try TraceFollower.continuing(trace, at: url)
        } catch {
            throw InspectorError(error.message)
        }
        store.follow(follower)
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
        store.follow(follower)
        watches = []
        var report: [Report] = [
            .message("reopened '\(source)': a new recording, \(turns.count) turns so far; following it")
        ]
        for text in watched {
            report += (try? addWatch(text)) ?? [.warning("could not watch \(text) in the new recording")]
        }
        return report
    }

    /// Makes `newTrace` (a restarted app's recording at the same path) the trace, with the
    /// cursor on its newest turn; every index built from the old one goes.
    private func adopt(_ newTrace: TraceFile) {
        store.adopt(newTrace)
        cursor = store.openingTurn
        timelineRead = nil
        searchedUndecodable = []
    }

    /// `watch EXPR`: reports each change of the expression's value in arriving turns.
    func addWatch(_ text: String) throws(InspectorError) -> [Report] {
        // A finished recording answers once with the value at its end; anything else that ended
        // following (a file changed under it) has no trustworthy end to read.
        if let end = store.following?.ended, end != .finished {
            throw InspectorError("nothing more will arrive: \(end.sentence)")
        }
        guard store.following != nil else {
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
        do {
            try store.keepLiveGraph()
        } catch {
            throw malformed(error)
        }
        let value = store.following?.liveGraph.map { Watch.evaluate(subject, in: $0.graph, turn: nil) } ?? .absent
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
