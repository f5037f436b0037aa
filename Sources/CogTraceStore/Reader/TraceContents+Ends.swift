import CogTraceFormat

extension TraceContents {
    /// Checks what the file says of its own extent against the turns it holds: the first
    /// keyframe stands before the first turn recorded, and the trailer counts every turn
    /// recorded, numbered from 1, so the last turn line is its count. A turn line deleted at either end breaks one of
    /// them; the turns it took become a gap like one in the middle, so an answer that spans
    /// them carries the warning, and the load says where.
    ///
    /// Run once per load, after every line is read: a gap it found before (kept by a sidecar
    /// index) is not added twice, and its warning, an end warning, is said again.
    mutating func checkEnds() {
        checkKeyframes()
        guard let first = entries.first, let last = entries.last else { return }
        let counts = TraceFormat.countRange
        let evicted = trailer.map(\.evicted) ?? 0
        guard counts.contains(evicted) else {
            warnings.append(
                TraceWarning(
                    line: trailerLine, message: "\(Self.endCheckLead) 'evicted' \(evicted) is outside 0..<2^53"))
            return
        }
        if evicted == 0, let keyframe = keyframes.first, keyframe.before < first.sequence {
            let gap = MissingTurns(first: keyframe.before, last: first.sequence - 1, line: first.line)
            note(
                gap,
                "\(gap.description): the first keyframe (line \(keyframeLines.first ?? 0)) stands before turn "
                    + "\(keyframe.before), the first turn line is turn \(first.sequence)")
        }
        guard let trailer else { return }
        guard counts.contains(trailer.turns) else {
            warnings.append(
                TraceWarning(
                    line: trailerLine, message: "\(Self.endCheckLead) 'turns' \(trailer.turns) is outside 0..<2^53"))
            return
        }
        // Turns are numbered from 1 as they are recorded, so the last one recorded is the
        // trailer's count; a file that starts later (a stream begun mid-run, a ring that
        // evicted) still ends there.
        if last.sequence.rawValue < trailer.turns {
            let gap = MissingTurns(first: last.sequence + 1, last: TurnNumber(trailer.turns), line: trailerLine)
            note(
                gap,
                "\(gap.description): the trailer (line \(trailerLine)) counts \(trailer.turns) turns, the last "
                    + "turn line is turn \(last.sequence)")
        }
        let inGaps = missingTurns.filter { $0.last < last.sequence }.map { $0.last.rawValue - $0.first.rawValue + 1 }
            .reduce(0, +)
        if entries.count + inGaps > trailer.turns {
            warnings.append(
                TraceWarning(
                    line: trailerLine,
                    message: "\(Self.endCheckLead) counts \(trailer.turns) turns, but the file holds "
                        + "\(entries.count + inGaps); lines may have been added"))
        }
    }

    /// How every warning of `checkEnds` begins, so a sidecar index keeps none of them.
    static let endCheckLead = "the trailer"

    /// Whether `warning` is one of `checkEnds`: said on every load, never kept by an index.
    static func isExtentWarning(_ warning: TraceWarning) -> Bool {
        warning.message.hasPrefix(endCheckLead) || warning.message.hasPrefix(misplacedKeyframeLead)
            || warning.message.contains("): the first keyframe (line ")
            || warning.message.contains(": the trailer (line ")
    }

    private mutating func note(_ gap: MissingTurns, _ message: String) {
        if !missingTurns.contains(gap) {
            let place = missingTurns.firstIndex { $0.first > gap.first } ?? missingTurns.count
            missingTurns.insert(gap, at: place)
        }
        warnings.append(TraceWarning(line: gap.line, message: message))
    }
}
