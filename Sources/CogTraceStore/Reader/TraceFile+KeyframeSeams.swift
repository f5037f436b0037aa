import CogTraceFormat

extension TraceFile {
    /// The keyframe a walk may start from in place of `position`'s: the same one once it agrees
    /// with the replay from the keyframe before it, else the nearest earlier one that does.
    ///
    /// A recorder writes every keyframe from the graph it has built by applying the same events
    /// a reader applies, so replaying the turns from one keyframe to the next gives the next one:
    /// the same states, with the same values. A keyframe inserted into a file, or put where its
    /// `before` does not belong, does not, even when no later turn contradicts it (a keyframe
    /// after the last turn, one missing a state nothing writes again). Each keyframe is checked
    /// once, the first time a walk starts there: one stretch of turns between two keyframes.
    /// - Throws: `TraceReadError` for a malformed turn in the stretch replayed, or
    ///   `TraceFile.cancelled`.
    func trustedStart(
        _ position: (keyframe: Int, entryIndex: Int)
    ) throws(TraceReadError) -> (keyframe: Int, entryIndex: Int) {
        var keyframe = position.keyframe
        while let disagreement = try seamDisagreement(of: keyframe) {
            reject(keyframe: keyframe, because: disagreement)
            guard let earlier = trustedPredecessor(of: keyframe) else { break }
            keyframe = earlier
        }
        return keyframe == position.keyframe
            ? position : (keyframe, firstEntryIndex(atOrAfter: keyframes[keyframe].before))
    }

    /// The last keyframe before `keyframe` that no check rejected.
    private func trustedPredecessor(of keyframe: Int) -> Int? {
        (0..<keyframe).last { !rejectedKeyframes.contains($0) }
    }

    /// What `keyframe` disagrees on with the replay from the keyframe before it; nil when they
    /// agree, when it was checked before, or when it is the first. When they disagree, the one
    /// before is checked in turn: if it is the wrong one, it is rejected and `keyframe` is
    /// compared with the one before that instead.
    private func seamDisagreement(of keyframe: Int) throws(TraceReadError) -> KeyframeDisagreement? {
        guard !rejectedKeyframes.contains(keyframe), !seamCheckedKeyframes.contains(keyframe),
            let previous = trustedPredecessor(of: keyframe)
        else { return nil }
        guard let found = try compareReplay(from: previous, with: keyframe) else {
            seamCheckedKeyframes.insert(keyframe)
            return nil
        }
        if let fault = try seamDisagreement(of: previous) {
            reject(keyframe: previous, because: fault)
            return try seamDisagreement(of: keyframe)
        }
        return found
    }

    /// The first state (by id) on which the replay of the turns from keyframe `from` to keyframe
    /// `to` and keyframe `to` itself disagree: one holds it and the other does not, or both hold
    /// a value and the values differ.
    private func compareReplay(from: Int, with to: Int) throws(TraceReadError) -> KeyframeDisagreement? {
        let end = firstEntryIndex(atOrAfter: keyframes[to].before)
        var start = try self.start(at: (from, firstEntryIndex(atOrAfter: keyframes[from].before)))
        var replayed = start.snapshot
        while start.nextIndex < end {
            let turn = try decodeTurn(turnEntries[start.nextIndex])
            for event in turn.events { replayed.apply(event) }
            for event in turn.after { replayed.apply(event) }
            start.nextIndex += 1
            if start.nextIndex % 256 == 0, isCancelled() { throw TraceFile.cancelled }
        }
        let expected = try self.start(at: (to, end)).snapshot
        let ids = Set(replayed.states.keys).union(expected.states.keys).sorted()
        for id in ids {
            let found = replayed.states[id]
            let held = expected.states[id]
            if found != nil, held != nil, found?.value == nil || held?.value == nil || found?.value == held?.value {
                continue
            }
            let shown = KeyframeDisagreement.shown(keyframe: held.map { $0.value }, turn: found.map { $0.value })
            return KeyframeDisagreement(
                line: contents.keyframeLines[to], before: keyframes[to].before,
                turn: end > 0 ? turnEntries[end - 1].sequence : keyframes[to].before, state: id,
                keyframeValue: shown.keyframe, turnValue: shown.turn, replayedFromLine: contents.keyframeLines[from])
        }
        return nil
    }
}
