import CogTraceFormat

/// What two runs of one step (a turn, or the work after it, `N+`) must agree on, with every
/// state and registration named by label, never by id: ids are handed out in creation order and
/// shift between runs for the same thing.
///
/// Every event kind counts. Value changes (writes, seeds, recomputes) are kept per state with both
/// ends and how they came about, so a report can show each side's old → new; everything else is
/// kept as sentences per aspect, compared as multisets (async steps in order).
struct StepFingerprint: Equatable {
    /// One state's change in the step: the first old value and the last new one.
    struct ValueChange: Equatable {
        var old: TraceValue?
        var new: TraceValue?
        /// Every value it took in the step, in order (a state written twice differs by either).
        var path: [TraceValue?]
        /// `written`, `seeded`, `recomputed` or `recomputed to the same value`, in event order.
        var how: [String]
        /// The dependency whose change made it recompute, by label, when the trace says.
        var trigger: String?

        /// `old → new (recomputed because X changed)`.
        var sentence: String {
            let reason = trigger.map { " because \($0) changed" } ?? ""
            return "\(old?.text ?? "nil") → \(new?.text ?? "nil") (\(how.joined(separator: ", "))\(reason))"
        }
    }

    var name: String
    /// What started the turn (`op`, `asyncCompletion`, …); empty for the work after it.
    var origin: String
    var values: [String: ValueChange] = [:]
    /// The other aspects, each a sorted list of sentences (async steps keep their order).
    var facts: [TraceDifference.Aspect: [String]] = [:]

    /// The fingerprint of `events`, for the turn named `name`, with `failures` reported after it.
    init(
        name: String, origin: String = "", events: [TraceEvent], failures: [TraceFailure] = [],
        labels: (NodeID) -> String
    ) {
        self.name = name
        self.origin = origin
        var facts: [TraceDifference.Aspect: [String]] = [:]
        func note(_ aspect: TraceDifference.Aspect, _ sentence: String) { facts[aspect, default: []].append(sentence) }
        for event in events {
            switch event {
            case .write(let state, let old, let new): noteValue(labels(state), old, new, "written", trigger: nil)
            case .seeded(let state, let value): noteValue(labels(state), nil, value, "seeded", trigger: nil)
            case .recompute(let state, let old, let new, let changed, let trigger):
                noteValue(
                    labels(state), old, new, changed ? "recomputed" : "recomputed to the same value",
                    trigger: trigger.map(labels))
            case .writeDiscarded(let state, let value):
                note(.lifecycle, "write to \(labels(state)) = \(value.comparableText) discarded")
            case .stateCreated(let state, let value):
                note(.lifecycle, "created \(labels(state)) = \(value?.comparableText ?? "-")")
            case .stateReleased(let state, let reason): note(.lifecycle, "released \(labels(state)) (\(reason))")
            case .boundaryAttached(let state): note(.lifecycle, "\(labels(state)) pinned by a UI read")
            case .graceScheduled(let state, let milliseconds):
                note(.lifecycle, "grace of \(labels(state)) began (\(milliseconds) ms)")
            case .graceExpired(let state): note(.lifecycle, "grace of \(labels(state)) ran out")
            case .edgeAdded(let consumer, let producer): note(.edges, "+ \(labels(consumer)) reads \(labels(producer))")
            case .edgeRemoved(let consumer, let producer):
                note(.edges, "- \(labels(consumer)) no longer reads \(labels(producer))")
            case .dependencies: break  // the edge events say the same, one change at a time
            case .leaseAcquired(let state, let holder): note(.leases, "\(labels(state)) held by \(holder)")
            case .leaseReleased(let state, let holder): note(.leases, "\(labels(state)) let go by \(holder)")
            case .leaseRenewed(let state, let holder): note(.leases, "\(labels(state)) renewed by \(holder)")
            case .generationStarted(let state, let generation, let policy):
                note(.async, "generation \(generation) of \(labels(state)) started (\(policy.rawValue))")
            case .generationCancelled(let state, let generation):
                note(.async, "generation \(generation) of \(labels(state)) cancelled")
            case .generationAccepted(let state, let generation, let outcome):
                note(.async, "generation \(generation) of \(labels(state)) published \(outcome)")
            case .generationRejected(let state, let generation):
                note(.async, "a late result of generation \(generation) of \(labels(state)) rejected")
            case .asyncStatus(let state, let kind, let isLoading, let hasSucceeded, let error):
                note(
                    .async,
                    "\(labels(state)) became \(kind)\(isLoading ? ", loading" : "")"
                        + "\(hasSucceeded ? ", has succeeded before" : "")" + (error.map { " (\($0))" } ?? ""))
            case .refreshResolved(let state, let generation, let outcome):
                note(
                    .async, "refresh of \(labels(state)) (generation \(generation.map(String.init) ?? "-")) \(outcome)")
            case .notice(let state): note(.effects, "observers of \(labels(state)) notified")
            case .reactionRun(let registration): note(.effects, "\(labels(registration)) ran")
            case .watchRun(let registration, let old, let new):
                note(.effects, "\(labels(registration)) fired: \(old?.comparableText ?? "nil") → \(new.comparableText)")
            case .offer(let state, let subscriber, let value):
                note(.effects, "\(labels(state)) offered \(value.comparableText) to \(labels(subscriber))")
            case .registered(_, let name, let kind): note(.registrations, "\(kind.rawValue) \(name) registered")
            case .unregistered(let registration): note(.registrations, "\(labels(registration)) unregistered")
            case .scopeOpened(_, let name, let identity):
                note(.registrations, "scope \(name) opened" + (identity.map { " for \($0)" } ?? ""))
            case .scopeRetired(let registration): note(.registrations, "scope \(labels(registration)) retired")
            case .taskStarted(_, let name): note(.registrations, "task \(name) started")
            case .taskCancelled(let registration): note(.registrations, "task \(labels(registration)) cancelled")
            case .taskFinished(let registration): note(.registrations, "task \(labels(registration)) finished")
            case .turnDropped(let name, let reason): note(.other, "queued turn '\(name)' dropped (\(reason))")
            case .diagnostic(let kind, let message, let path):
                note(.other, "\(kind): \(message)" + (path.isEmpty ? "" : " [\(path.joined(separator: " -> "))]"))
            }
        }
        for failure in failures { note(.failures, "\(failure.kind.rawValue) in \(failure.test): \(failure.message)") }
        for aspect in facts.keys where aspect != .async { facts[aspect]?.sort() }
        self.facts = facts
    }

    private mutating func noteValue(
        _ label: String, _ old: TraceValue?, _ new: TraceValue?, _ how: String, trigger: String?
    ) {
        if var change = values[label] {
            change.new = new
            change.path.append(new)
            change.how.append(how)
            values[label] = change
        } else {
            values[label] = ValueChange(old: old, new: new, path: [new], how: [how], trigger: trigger)
        }
    }

    /// Every aspect that differs from `other`, in the order a reader checks them, each with the
    /// lines that say how ("here" is this recording, "in the other" the second).
    func differences(from other: StepFingerprint) -> [(aspect: TraceDifference.Aspect, lines: [String])] {
        var found: [(TraceDifference.Aspect, [String])] = []
        if name != other.name {
            found.append((.turnName, ["the turn is '\(name)' here, '\(other.name)' in the other"]))
        } else if origin != other.origin {
            found.append(
                (.turnName, ["the turn '\(name)' comes from \(origin) here, from \(other.origin) in the other"]))
        }
        let valueLines = valueDifferences(from: other)
        if !valueLines.written.isEmpty { found.append((.writes, valueLines.written)) }
        if !valueLines.computed.isEmpty { found.append((.recomputes, valueLines.computed)) }
        for aspect in TraceDifference.Aspect.factOrder {
            let mine = facts[aspect] ?? []
            let theirs = other.facts[aspect] ?? []
            guard mine != theirs else { continue }
            found.append((aspect, Self.listDifference(mine, theirs, ordered: aspect == .async)))
        }
        return found
    }

    /// Each state whose change differs, with both sides: written ones (a source the runs set
    /// differently) apart from computed ones.
    private func valueDifferences(from other: StepFingerprint) -> (written: [String], computed: [String]) {
        var written: [String] = []
        var computed: [String] = []
        for label in Set(values.keys).union(other.values.keys).sorted() {
            let mine = values[label]
            let theirs = other.values[label]
            guard mine != theirs else { continue }
            let here = mine.map(\.sentence) ?? "not changed"
            let there = theirs.map(\.sentence) ?? "not changed"
            var line = "\(label): here \(here); in the other \(there)"
            if let left = mine?.new?.json, let right = theirs?.new?.json {
                let fields = right.fieldChanges(to: left).filter { !$0.path.isEmpty }
                if !fields.isEmpty {
                    line +=
                        " ["
                        + fields.prefix(4).map {
                            "\($0.path) is \($0.new?.jsonText ?? "—") here, \($0.old?.jsonText ?? "—") in the other"
                        }.joined(separator: "; ") + "]"
                }
            }
            let isWrite =
                (mine?.how ?? []).contains { $0 == "written" || $0 == "seeded" }
                || (theirs?.how ?? []).contains { $0 == "written" || $0 == "seeded" }
            if isWrite { written.append(line) } else { computed.append(line) }
        }
        return (written, computed)
    }

    /// What only one side has (as multisets), or, for an ordered list, where they part.
    private static func listDifference(_ mine: [String], _ theirs: [String], ordered: Bool) -> [String] {
        if ordered {
            var index = 0
            while index < mine.count, index < theirs.count, mine[index] == theirs[index] { index += 1 }
            let here = index < mine.count ? mine[index] : "nothing more"
            let there = index < theirs.count ? theirs[index] : "nothing more"
            return ["step \(index + 1): here \(here); in the other \(there)"]
        }
        var remaining = theirs
        var onlyHere: [String] = []
        for sentence in mine {
            if let match = remaining.firstIndex(of: sentence) {
                remaining.remove(at: match)
            } else {
                onlyHere.append(sentence)
            }
        }
        return onlyHere.map { "only here: \($0)" } + remaining.map { "only in the other: \($0)" }
    }
}

extension TraceDifference.Aspect {
    /// The aspects kept as sentences, in the order a reader checks them after the values.
    static let factOrder: [TraceDifference.Aspect] = [
        .lifecycle, .edges, .leases, .async, .effects, .registrations, .failures, .other,
    ]
}
