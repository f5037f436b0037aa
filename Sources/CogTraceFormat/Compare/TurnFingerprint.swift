/// What two runs of the same turn must agree on, with states named by label: the turn's name,
/// its writes, its recomputes and their values, the edges it changed and its async steps.
struct TurnFingerprint {
    struct Write: Equatable {
        let label: String
        let value: TraceValue
    }

    struct Recompute: Equatable {
        let label: String
        let value: TraceValue?
        let changed: Bool
    }

    let name: String
    let writes: [Write]
    let recomputes: [Recompute]
    let edges: Set<String>
    let asyncSteps: [String]

    init(_ turn: TraceTurn, labels: (NodeID) -> String) {
        name = turn.name
        var writes: [Write] = []
        var recomputes: [Recompute] = []
        var edges = Set<String>()
        var asyncSteps: [String] = []
        for event in turn.events {
            switch event {
            case .write(let state, _, let new): writes.append(Write(label: labels(state), value: new))
            case .recompute(let state, _, let new, let changed, _):
                recomputes.append(Recompute(label: labels(state), value: new, changed: changed))
            case .edgeAdded(let consumer, let producer): edges.insert("+ \(labels(consumer)) reads \(labels(producer))")
            case .edgeRemoved(let consumer, let producer):
                edges.insert("- \(labels(consumer)) reads \(labels(producer))")
            case .generationStarted(let state, let generation, _):
                asyncSteps.append("generation \(generation) of \(labels(state)) started")
            case .generationCancelled(let state, let generation):
                asyncSteps.append("generation \(generation) of \(labels(state)) cancelled")
            case .generationAccepted(let state, let generation, let outcome):
                asyncSteps.append("generation \(generation) of \(labels(state)) published \(outcome)")
            case .asyncStatus(let state, let kind, let isLoading, _, let error):
                asyncSteps.append(
                    "\(labels(state)) became \(kind)\(isLoading ? ", loading" : "")"
                        + (error.map { " (\($0))" } ?? ""))
            default: break
            }
        }
        self.writes = writes
        self.recomputes = recomputes
        self.edges = edges
        self.asyncSteps = asyncSteps
    }

    /// The first thing that differs from `other`, in the order a reader would check: the name,
    /// the writes, the recomputes, the edges, the async steps.
    func firstDifference(from other: TurnFingerprint) -> (TraceDifference.Aspect, String)? {
        if name != other.name { return (.turnName, "this turn is '\(name)', the other is '\(other.name)'") }
        if let detail = Self.firstMismatch(
            writes, other.writes, describe: { "write to \($0.label) = \($0.value.text)" },
            valueChange: { ($0.label, $0.value, $1.value) })
        {
            return (.writes, detail)
        }
        if let detail = Self.firstMismatch(
            recomputes, other.recomputes,
            describe: { "recompute of \($0.label) = \($0.value?.text ?? "nil")\($0.changed ? "" : " (gated)")" },
            valueChange: { ($0.label, $0.value, $1.value) })
        {
            return (.recomputes, detail)
        }
        if edges != other.edges {
            let mine = edges.subtracting(other.edges).sorted()
            let theirs = other.edges.subtracting(edges).sorted()
            var parts: [String] = []
            if !mine.isEmpty { parts.append("only this one changes edges [\(mine.joined(separator: "; "))]") }
            if !theirs.isEmpty { parts.append("only the other changes edges [\(theirs.joined(separator: "; "))]") }
            return (.edges, parts.joined(separator: ", "))
        }
        if asyncSteps != other.asyncSteps {
            let index = Self.firstMismatchIndex(asyncSteps, other.asyncSteps)
            let mine = index < asyncSteps.count ? asyncSteps[index] : "nothing more"
            let theirs = index < other.asyncSteps.count ? other.asyncSteps[index] : "nothing more"
            return (.async, "async step \(index + 1): this has \(mine), the other \(theirs)")
        }
        return nil
    }

    /// Where two event lists first disagree, described; for the same state with different
    /// values, the fields that differ.
    private static func firstMismatch<Item: Equatable>(
        _ mine: [Item], _ theirs: [Item], describe: (Item) -> String,
        valueChange: (Item, Item) -> (label: String, mine: TraceValue?, theirs: TraceValue?)
    ) -> String? {
        guard mine != theirs else { return nil }
        let index = firstMismatchIndex(mine, theirs)
        guard index < min(mine.count, theirs.count) else {
            return mine.count > theirs.count
                ? "this has an extra \(describe(mine[theirs.count]))"
                : "the other has an extra \(describe(theirs[mine.count]))"
        }
        let change = valueChange(mine[index], theirs[index])
        let otherLabel = valueChange(theirs[index], mine[index]).label
        guard change.label == otherLabel, change.mine != change.theirs else {
            return "this has a \(describe(mine[index])), the other a \(describe(theirs[index]))"
        }
        if let left = change.mine?.json, let right = change.theirs?.json {
            let fields = right.fieldChanges(to: left)
            if !fields.isEmpty, fields.allSatisfy({ !$0.path.isEmpty }) {
                let list = fields.prefix(4).map {
                    "\($0.path) is \($0.new?.jsonText ?? "—") here, \($0.old?.jsonText ?? "—") in the other"
                }
                return "\(change.label) differs: " + list.joined(separator: "; ")
            }
        }
        return "\(change.label) is \(change.mine?.text ?? "nil") here, \(change.theirs?.text ?? "nil") in the other"
    }

    /// The first position where two lists differ; the shorter one's length when one extends the other.
    private static func firstMismatchIndex<Item: Equatable>(_ mine: [Item], _ theirs: [Item]) -> Int {
        var index = 0
        while index < mine.count, index < theirs.count, mine[index] == theirs[index] { index += 1 }
        return index
    }
}
