import CogTraceFormat

extension InspectorSession {
    /// A graph diff as sections a person reads, naming states and registrations by label.
    func diffReport(_ diff: GraphDiff, from: Int, to: Int) -> [Report] {
        guard !diff.isEmpty else { return [.message("nothing differs between turn \(from) and turn \(to)")] }
        let before = try? graph(after: from), after = try? graph(after: to)
        func name(_ id: Int) -> String { label(id, in: after?.registrations[id] != nil ? after : before) }
        var reports: [Report] = [.message("from turn \(from) to turn \(to)")]
        func add(_ title: String, _ lines: [String]) {
            if !lines.isEmpty { reports.append(.section(title, [.lines(lines)])) }
        }
        add("values", diff.valueChanges.flatMap { change -> [String] in
            guard !change.fields.isEmpty else {
                return ["\(name(change.state)): \(change.old?.text ?? "nil") → \(change.new?.text ?? "nil")"]
            }
            return change.fields.map { "\(name(change.state))\($0.line.hasPrefix("value") ? ": " + $0.line : $0.line)" }
        })
        add("states created", diff.statesCreated.map { id in
            "\(name(id))" + (after?.states[id]?.value.map { " = \($0.text)" } ?? "")
        })
        add("states released", diff.statesReleased.map(name))
        add("edges", diff.edgesAdded.map { "+ \(name($0.consumer)) reads \(name($0.producer))" }
            + diff.edgesRemoved.map { "- \(name($0.consumer)) no longer reads \(name($0.producer))" })
        add("leases", diff.leasesAcquired.map { "+ \(name($0.state)) held by \($0.holder)" }
            + diff.leasesReleased.map { "- \(name($0.state)) no longer held by \($0.holder)" })
        add("async", diff.asyncChanges.map { change in
            "\(name(change.state)): \(Self.describe(change.old)) → \(Self.describe(change.new))"
        })
        add("registrations", diff.registrationsOpened.map { id in
            "+ \(name(id)) (\(after?.registrations[id]?.kind ?? "?"))"
        } + diff.registrationsRetired.map { id in "- \(name(id)) (\(before?.registrations[id]?.kind ?? "?"))" })
        return reports
    }

    private static func describe(_ status: GraphSnapshot.AsyncStatus?) -> String {
        guard let status else { return "—" }
        return "\(status.kind)\(status.isLoading ? ", loading" : "") (generation \(status.generation))"
            + (status.error.map { ", error: \($0)" } ?? "")
    }
}
