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

    /// The chain as the lines a terminal prints, each whole: `textRows` joined.
    public var textLines: [String] { textRows.map { $0.lead + $0.text } }

    /// The chain as a terminal prints it, a row per line: the note, each link behind the tree
    /// guides of its branch level (capped, so a deep tree stays on screen), an async result's
    /// work under it, and what was cut. `hanging` is what a wrapped piece of the row starts
    /// with: the guides carried down, so a continuation never reads as a link of its own.
    public var textRows: [(lead: String, text: String, hanging: String)] {
        let levels = indentLevels
        var hasLaterSibling = [Bool](repeating: false, count: links.count)
        var hasIndentedChild = [Bool](repeating: false, count: links.count)
        var lastChild: [Int: Int] = [:]
        for (index, link) in links.enumerated() {
            guard let parent = link.parent, parent < index else { continue }
            if let previous = lastChild[parent] { hasLaterSibling[previous] = true }
            lastChild[parent] = index
            if levels[index] > 0 { hasIndentedChild[parent] = true }
        }
        var rows: [(lead: String, text: String, hanging: String)] = note.map { [("", $0, "")] } ?? []
        // The guide column each open level shows below a link: `│` while a branch continues.
        var columns: [Bool] = []
        for (index, link) in links.enumerated() {
            let level = min(levels[index], Self.maximumIndent)
            columns = Array(columns.prefix(max(level - 1, 0)))
            let above = columns.map { $0 ? "│ " : "  " }.joined()
            let lead = level == 0 ? "" : above + (hasLaterSibling[index] ? "├ " : "└ ")
            if level > 0 { columns.append(hasLaterSibling[index]) }
            let own = level == 0 ? "" : (hasLaterSibling[index] ? "│ " : "  ")
            let hanging = above + own + (hasIndentedChild[index] ? "│ " : "  ")
            rows.append((lead, link.line, hanging))
            if link.sameAs == nil, let detail = link.detail { rows.append((hanging, detail, hanging + "  ")) }
        }
        if let cutNote { rows.append(("", cutNote, "  ")) }
        return rows
    }

    /// The deepest indentation shown; deeper branches line up with it.
    static let maximumIndent = 12
}
