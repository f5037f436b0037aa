import CogTraceFormat

extension TraceContents {
    /// Checks each keyframe against the turn lines around it and the trailer's count of them. A
    /// writer puts a keyframe just before the line of the turn it stands before, so the turn
    /// line above it is an earlier turn and the one below it is that turn or a later one (when
    /// turns went missing); one that breaks this was put there by hand. It is said, with its
    /// line, and no walk starts from it (the first keyframe, the graph everything else is built
    /// on, is only said). A trailer that counts other than the file's keyframe lines is said too.
    ///
    /// Run once per load with `checkEnds`: its warnings are said on every load, never kept by a
    /// sidecar index.
    mutating func checkKeyframes() {
        if let trailer, trailer.keyframes != keyframes.count {
            warnings.append(
                TraceWarning(
                    line: trailerLine,
                    message: "\(Self.endCheckLead) counts \(trailer.keyframes) keyframes, but the file holds "
                        + "\(keyframes.count); keyframe lines may have been added or removed"))
        }
        if let position = keyframes.indices.first(where: { !undeclared(in: $0).isEmpty }) {
            let ids = undeclared(in: position)
            let shown = ids.prefix(5).map { "#\($0)" }.joined(separator: ", ")
            let more = ids.count > 5 ? " and \(ids.count - 5) more" : ""
            warnings.append(
                TraceWarning(
                    line: keyframeLines[position],
                    message: "\(Self.misplacedKeyframeLead) \(keyframeLines[position]) holds \(shown)\(more), which no "
                        + "state record declares; state lines may have been removed"))
        }
        var misplaced: [Int] = []
        for (position, keyframe) in keyframes.enumerated() {
            let line = keyframeLines[position]
            let below = entries.partitioningIndex { $0.line > line }
            let above = below > 0 ? entries[below - 1] : nil
            let next = below < entries.count ? entries[below] : nil
            let lastCounted = trailer.map { TurnNumber($0.turns) }
            var problem: String?
            if let above, above.sequence >= keyframe.before {
                problem = "the turn line above it (line \(above.line)) is turn \(above.sequence)"
            } else if let next, next.sequence < keyframe.before {
                problem = "the turn line below it (line \(next.line)) is turn \(next.sequence)"
            } else if next == nil, let lastCounted, keyframe.before > lastCounted + 1 {
                problem = "the trailer counts \(lastCounted) turns"
            }
            guard let problem else { continue }
            let consequence = position == 0 ? "answers may be wrong" : "no answer starts from it"
            warnings.append(
                TraceWarning(
                    line: line,
                    message: "\(Self.misplacedKeyframeLead) \(line) stands before turn \(keyframe.before), but "
                        + "\(problem); \(consequence)"))
            if position > 0 { misplaced.append(position) }
        }
        for position in misplaced.reversed() {
            keyframes.remove(at: position)
            keyframeLines.remove(at: position)
        }
    }

    /// The ids keyframe `position` holds that no state record declares, in order.
    private func undeclared(in position: Int) -> [NodeID] {
        keyframes[position].snapshot.states.keys.filter { states[$0] == nil }.sorted()
    }

    /// How every warning about a keyframe's place or contents begins.
    static let misplacedKeyframeLead = "the keyframe at line"
}
