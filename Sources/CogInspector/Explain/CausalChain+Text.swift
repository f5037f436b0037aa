import CogTraceFormat

extension CausalLink {
    /// The link as one line, the same in the terminal and the viewer:
    /// `weather.currentZip: 10001 → 94105, written in turn 9 (selectLocation(_:)), origin op`.
    /// A step with no value before it (a creation, a seed, a value held since the start) shows
    /// `label = value`; one explained at another link says "see above" (or below) instead.
    public var line: String {
        let text = value?.text ?? "nil"
        if let sameAs {
            return "\(state.label) = \(text), see \(sameAs < index ? "above" : "below")"
        }
        switch cause {
        case .created, .seeded, .heldSinceStart:
            return "\(state.label) = \(text), \(explanation)"
        case .reacted where value == nil:
            return "\(state.label), \(explanation)"
        default:
            return "\(state.label): \(old?.text ?? "nil") → \(text), \(explanation)"
        }
    }

    /// A second line under the link, when it has more to say: an async result's work.
    public var detail: String? {
        asyncWork.map { "its work: \($0.summary)" }
    }
}

extension CausalChain {
    /// How far each link is indented: one step more than its parent where the parent has
    /// several causes or is itself indented, so a chain of single causes from the subject reads
    /// as a list and a tree shows every branch, however long.
    public var indentLevels: [Int] {
        var causeCounts = [Int](repeating: 0, count: links.count)
        for link in links { if let parent = link.parent, parent < links.count { causeCounts[parent] += 1 } }
        var levels = [Int](repeating: 0, count: links.count)
        for (index, link) in links.enumerated() {
            guard let parent = link.parent, parent < index else { continue }
            levels[index] = levels[parent] + (causeCounts[parent] > 1 || levels[parent] > 0 ? 1 : 0)
        }
        return levels
    }

    /// What the chain left out, as a sentence naming the option that shows it; nil when nothing
    /// was cut.
    public var cutNote: String? {
        guard cut > 0 || !cutIsExact else { return nil }
        let more = cutIsExact ? "\(cut) more \(cut == 1 ? "link lies" : "links lie")" : "more links lie"
        let depth = cutIsExact ? fullDepth : max(fullDepth, depthLimit * 2)
        return "\(more) deeper than level \(depthLimit); --depth \(depth) shows " + (cutIsExact ? "them all" : "more")
    }

    /// The chain as the lines a terminal prints: the note, each link indented by its branch
    /// level (capped, so a deep tree stays on screen), an async result's work under it, and what
    /// was cut.
    public var textLines: [String] {
        var lines = note.map { [$0] } ?? []
        for (link, level) in zip(links, indentLevels) {
            let indent = String(repeating: "  ", count: min(level, Self.maximumIndent))
            lines.append(indent + link.line)
            if link.sameAs == nil, let detail = link.detail { lines.append(indent + "  " + detail) }
        }
        if let cutNote { lines.append(cutNote) }
        return lines
    }

    /// The deepest indentation shown; deeper branches line up with it.
    static let maximumIndent = 12
}
