import CogTraceFormat

extension CommandContext {
    /// A graph diff as typed entries in titled sections, naming states and registrations by label.
    func diffReport(_ diff: GraphDiff, from: TurnNumber, to: TurnNumber) -> [Report] {
        guard !diff.isEmpty else { return [.message("nothing differs between turn \(from) and turn \(to)")] }
        let before = try? graph(after: from)
        let after = try? graph(after: to)
        func reference(_ id: NodeID) -> StateReference {
            StateReference(id: id, label: label(id, in: after?.registrations[id] != nil ? after : before))
        }
        var reports: [Report] = [.message("from turn \(from) to turn \(to)")]
        func add(_ title: String, _ entries: [DiffEntry]) {
            if !entries.isEmpty { reports.append(.section(title, [.changes(entries)])) }
        }
        add(
            "values",
            diff.valueChanges.flatMap { change -> [DiffEntry] in
                let subject = reference(change.state)
                guard !change.fields.isEmpty else {
                    var entry = DiffEntry(
                        .values, .changed, subject,
                        description: "\(subject.label): \(change.old?.text ?? "nil") → \(change.new?.text ?? "nil")")
                    entry.old = .value(change.old)
                    entry.new = .value(change.new)
                    return [entry]
                }
                return change.fields.map { field in
                    let line = field.line
                    var entry = DiffEntry(
                        .values, .changed, subject,
                        description: "\(subject.label)\(line.hasPrefix("value") ? ": " + line : line)")
                    entry.field = field.path
                    entry.old = field.old.map { .json(StructuredValue($0)) } ?? .absent
                    entry.new = field.new.map { .json(StructuredValue($0)) } ?? .absent
                    return entry
                }
            })
        add(
            "states created",
            diff.statesCreated.map { id in
                let subject = reference(id)
                let value = after?.states[id]?.value
                var entry = DiffEntry(
                    .lifecycle, .created, subject,
                    description: subject.label + (value.map { " = \($0.text)" } ?? ""))
                entry.new = .value(value)
                return entry
            })
        add(
            "states released",
            diff.statesReleased.map { id in
                let subject = reference(id)
                var entry = DiffEntry(.lifecycle, .released, subject, description: subject.label)
                entry.old = .value(before?.states[id]?.value)
                return entry
            })
        func edge(_ edge: GraphDiff.Edge, _ change: DiffEntry.Change) -> DiffEntry {
            let consumer = reference(edge.consumer)
            let producer = reference(edge.producer)
            let sentence =
                change == .added
                ? "+ \(consumer.label) now reads \(producer.label)"
                : "- \(consumer.label) no longer reads \(producer.label)"
            var entry = DiffEntry(.edges, change, consumer, description: sentence)
            entry.producer = producer
            return entry
        }
        add("edges", diff.edgesAdded.map { edge($0, .added) } + diff.edgesRemoved.map { edge($0, .removed) })
        func lease(_ lease: GraphDiff.Lease, _ change: DiffEntry.Change) -> DiffEntry {
            let state = reference(lease.state)
            let sentence =
                change == .acquired
                ? "+ \(state.label) now held by \(lease.holder)" : "- \(state.label) no longer held by \(lease.holder)"
            var entry = DiffEntry(.leases, change, state, description: sentence)
            entry.holder = lease.holder
            return entry
        }
        add(
            "leases",
            diff.leasesAcquired.map { lease($0, .acquired) } + diff.leasesReleased.map { lease($0, .released) })
        add(
            "async",
            diff.asyncChanges.map { change in
                let subject = reference(change.state)
                var entry = DiffEntry(
                    .async, .changed, subject,
                    description: "\(subject.label): \(Self.describe(change.old)) → \(Self.describe(change.new))")
                entry.old = change.old.map { .text(Self.describe($0)) } ?? .absent
                entry.new = change.new.map { .text(Self.describe($0)) } ?? .absent
                return entry
            })
        add(
            "registrations",
            diff.registrationsOpened.map { id in
                let subject = reference(id)
                return DiffEntry(
                    .lifecycle, .opened, subject,
                    description: "+ \(subject.label) (\(after?.registrations[id]?.kind.rawValue ?? "?"))")
            }
                + diff.registrationsRetired.map { id in
                    let subject = reference(id)
                    return DiffEntry(
                        .lifecycle, .retired, subject,
                        description: "- \(subject.label) (\(before?.registrations[id]?.kind.rawValue ?? "?"))")
                })
        return reports
    }

    private static func describe(_ status: GraphSnapshot.AsyncStatus?) -> String {
        guard let status else { return "—" }
        return "\(status.kind)\(status.isLoading ? ", loading" : "") (generation \(status.generation))"
            + (status.error.map { ", error: \($0)" } ?? "")
    }
}
