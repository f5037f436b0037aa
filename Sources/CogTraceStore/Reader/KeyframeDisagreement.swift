public import CogTraceFormat

/// A keyframe that the turns after it contradict: replaying from it, a turn's recorded old value
/// of a state is not the value the keyframe holds. A keyframe put in the wrong place (a wrong
/// `before`) or edited reads this way. The reader then replays from an earlier keyframe, and
/// answers past the contradicted one say so.
public struct KeyframeDisagreement: Equatable, Sendable, CustomStringConvertible {
    /// The keyframe's line.
    public let line: Int
    /// The turn the keyframe claims to precede.
    public let before: TurnNumber
    /// The turn whose record contradicts it.
    public let turn: TurnNumber
    /// The state they disagree about, by id (the caller names it).
    public let state: NodeID
    /// The state's value in the keyframe, as displayed.
    public let keyframeValue: String
    /// The value the turn recorded as the state's old value, or the value the replay up to the
    /// keyframe found.
    public let turnValue: String
    /// The line of the keyframe the turns were replayed from, when the keyframe was found to
    /// disagree with that replay rather than with one turn's record.
    public var replayedFromLine: Int? = nil

    public var description: String { description(naming: "state \(state)") }

    /// The description with the state called `name` (its label, where the caller knows it).
    public func description(naming name: String) -> String {
        if let replayedFromLine {
            return "the keyframe at line \(line) (the graph before turn \(before)) disagrees with the turns "
                + "replayed from the keyframe at line \(replayedFromLine): \(name) is \(keyframeValue) there, but "
                + "the replay through turn \(turn) found \(turnValue)"
        }
        return "the keyframe at line \(line) (the graph before turn \(before)) disagrees with turn \(turn): \(name) "
            + "is \(keyframeValue) there, but the turn found \(turnValue)"
    }
}

extension KeyframeDisagreement {
    /// The keyframe's side and the turns' side as a warning shows them: `absent` for a state
    /// one side does not hold, `present` for one held without a value, else the value's text;
    /// values that read the same but differ in their structured form show that form too.
    static func shown(keyframe: TraceValue??, turn: TraceValue??) -> (keyframe: String, turn: String) {
        func text(_ side: TraceValue??) -> String {
            guard let held = side else { return "absent" }
            return held?.text ?? "present"
        }
        guard let kept = keyframe ?? nil, let found = turn ?? nil, kept.text == found.text else {
            return (text(keyframe), text(turn))
        }
        return (withStructure(kept), withStructure(found))
    }

    /// A value's text with its JSON form beside it (`3 (as JSON "3")`), or with a note that it
    /// has none: how two values whose texts agree still differ.
    private static func withStructure(_ value: TraceValue) -> String {
        "\(value.text) (\(value.jsonText.map { "as JSON \($0)" } ?? "text only"))"
    }
}

extension TraceFile {
    /// What a walk starting at keyframe `keyframe` finds wrong with it in `turn`, before applying
    /// `event`: nil when the event agrees with the graph built so far.
    func disagreement(
        of keyframe: Int, in turn: TurnNumber, event: TraceEvent, graph: GraphSnapshot
    ) -> KeyframeDisagreement? {
        let state: NodeID
        let old: TraceValue?
        switch event {
        case .write(let id, let value, _): (state, old) = (id, value)
        case .recompute(let id, let value, _, _, _): (state, old) = (id, value)
        default: return nil
        }
        // A first run has no old value; anything else ran or was written before, so the graph
        // must hold the state, with that value.
        guard let old else { return nil }
        let held = graph.states[state]
        if let held, held.value == nil || held.value == old { return nil }
        let shown = KeyframeDisagreement.shown(keyframe: held.map { $0.value }, turn: old)
        return KeyframeDisagreement(
            line: contents.keyframeLines[keyframe], before: keyframes[keyframe].before, turn: turn, state: state,
            keyframeValue: shown.0, turnValue: shown.1)
    }

    /// Notes that keyframe `keyframe` is contradicted, so walks start from an earlier one.
    func reject(keyframe: Int, because disagreement: KeyframeDisagreement) {
        guard rejectedKeyframes.insert(keyframe).inserted else { return }
        keyframeDisagreements.append(disagreement)
        snapshotCache.removeAll()
    }
}
