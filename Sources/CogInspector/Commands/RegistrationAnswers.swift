import CogTraceFormat
import CogTraceStore

/// The answers `history`, `get`, `deps` and `why` give about a reaction, watch, scope or task:
/// when it ran or fired, what it read, and which change made it run.
extension CommandContext {
    /// Every run of the registrations (and when they were made and removed), with what each run
    /// read and which of those reads had just changed.
    func registrationHistory(
        name: String, ids: [NodeID], kind: RegistrationKind, through limit: TurnNumber? = nil
    ) -> [Report] {
        let entries = registrationEntries(ids, through: limit)
        var rows: [[Cell]] = []
        var hasRun = Set<NodeID>()
        for entry in entries {
            guard let decoded = entry.event, let id = decoded.registration, let event = Self.describe(decoded)
            else { continue }
            let turn = Cell.turn(TurnReference(entry.turn, afterTurn: entry.isIdle))
            guard Self.isRun(entry) else {
                rows.append([turn, .text(event), .absent, .absent, .absent])
                continue
            }
            let reads = reads(of: id, at: entry, among: entries)
            var value = Cell.absent
            if case .watchRun(_, _, let new) = entry.event { value = .value(new) }
            let because: Cell
            if case .reactionRun = entry.event, hasRun.insert(id).inserted {
                because = .text("first run")
            } else {
                let changed = changedBefore(entry, among: reads)
                because = changed.isEmpty ? .absent : .list(changed.map { .state(reference($0)) })
            }
            rows.append([turn, .text(event), value, .list(reads.map { .state(reference($0)) }), because])
        }
        guard !rows.isEmpty else { return [.message("\(name) never ran in this recording")] }
        let ran = !hasRun.isEmpty
        var notes = ran ? ["'because' names what it reads that changed in that turn before it ran"] : []
        if kind == .watch, ran {
            notes.insert("a watch 'ran' when it evaluated what it watches and 'fired' when that changed", at: 0)
        }
        return [.table(columns: ["turn", "event", "value", "reads", "because"], rows: rows)] + notes.map(Report.message)
    }

    /// A registration at the cursor: its kind, whether it is live, how often it ran and fired.
    func registrationFields(name: String, ids: [NodeID], kind: RegistrationKind) throws(InspectorError) -> [Field] {
        let graph = try graph()
        let live = ids.last { graph.registrations[$0] != nil }
        let entries = registrationEntries(ids, through: cursor)
        let runs = entries.filter { if case .reactionRun = $0.event { true } else { false } }
        let fired = entries.filter { if case .watchRun = $0.event { true } else { false } }
        var fields = [
            Field("registration", .text(name)), Field("kind", .text(kind.rawValue)),
            Field("live", .bool(live != nil)), Field("runs", .integer(runs.count)),
            Field("last run", runs.last.map { .turn(TurnReference($0.turn, afterTurn: $0.isIdle)) } ?? .absent),
        ]
        if kind == .watch {
            fields.append(Field("fired", .integer(fired.count)))
            if let last = fired.last, case .watchRun(_, _, let new) = last.event {
                fields.append(Field("last fired", .turn(TurnReference(last.turn, afterTurn: last.isIdle))))
                fields.append(Field("value", .value(new)))
            }
        }
        if let live, let reads = graph.registrations[live]?.dependencies {
            fields.append(Field("reads", .list(reads.map { .state(reference($0)) })))
        }
        return fields
    }

    /// Why a registration last ran at or before turn `limit`: its run, linked to the change
    /// that made it run (every read, for a first run) and on through those causes; nil when it
    /// has not run by then.
    func registrationChain(name: String, ids: [NodeID], _ options: WhyOptions) -> CausalChain? {
        let limit = options.turn ?? cursor
        let entries = registrationEntries(ids, through: limit)
        guard let run = entries.last(where: Self.isRun), let id = run.event?.registration else { return nil }
        let reads = reads(of: id, at: run, among: entries)
        let isFirst = !entries.contains { $0.precedes(run) && Self.isRun($0) && $0.event?.registration == id }
        let changed = isFirst ? [] : changedBefore(run, among: reads)
        let trigger = changed.first
        var old: TraceValue?
        var value: TraceValue?
        if case .watchRun(_, let previous, let new) = run.event { (old, value) = (previous, new) }
        let place = placeDescription(of: run)
        let explanation =
            isFirst
            ? "ran for the first time \(place)"
            : trigger.map { "ran \(place) because \(label($0)) changed" }
                ?? "ran \(place), though none of what it reads had changed in that turn"
        var causes: [(state: NodeID, role: CausalLink.Role)] = reads.map {
            ($0, changed.contains($0) ? .changed : .read)
        }
        if let trigger, !options.all { causes = [(trigger, .changed)] }
        // What the run read is computed while it runs, after its own event; the dependency list
        // it records when it finishes marks the end of those reads.
        let finished = entries.first { entry in
            guard run.precedes(entry), entry.turn == run.turn, entry.isIdle == run.isIdle,
                case .dependencies(id, _) = entry.event
            else { return false }
            return true
        }
        let step = CausalStep(
            subject: id, entry: run, cause: .reacted, old: old, new: value, changed: true, trigger: trigger,
            causes: causes, asyncWork: nil, evicted: nil, explanation: explanation, causesBefore: finished?.point)
        return expand(
            step, as: StateReference(id: id, label: name), values: (old, value), at: TurnReference(limit), field: nil,
            note: nil, options: options)
    }

    /// A registration event in a few words, or nil for one `history` leaves to `deps`.
    private static func describe(_ event: TraceEvent) -> String? {
        switch event {
        case .registered(_, _, let kind): "registered \(kind.rawValue)"
        case .unregistered: "unregistered"
        case .reactionRun: "ran"
        case .watchRun: "fired"
        case .scopeOpened(_, _, let identity): identity.map { "opened for \($0)" } ?? "opened"
        case .scopeRetired: "retired"
        case .taskStarted: "task started"
        case .taskCancelled: "task cancelled"
        case .taskFinished: "task finished"
        default: nil
        }
    }
}
