import Cog

/// A probe that keeps every event as a short line of text, with states named by label, so tests
/// can assert what happened and in which order.
final class EventLog: CogProbe {
    private(set) var lines: [String] = []
    private(set) var events: [CogProbeEvent] = []
    private var labels: [CogStateID: String] = [:]

    /// A log attached to `cogs` that keeps what happens from now on: the runtime's announcement
    /// of the states it already holds (which a probe receives on attaching) is left out.
    static func attached(to cogs: Cogs) -> EventLog {
        let log = EventLog()
        cogs.probe = log
        log.events.removeAll()
        log.lines.removeAll()
        return log
    }

    func record(_ event: consuming CogProbeEvent) {
        let event = event
        events.append(event)
        lines.append(render(event))
    }

    /// The lines whose text starts with one of `prefixes`.
    func lines(startingWith prefixes: String...) -> [String] {
        lines.filter { line in prefixes.contains { line.hasPrefix($0) } }
    }

    func clear() {
        lines.removeAll()
        events.removeAll()
    }

    private func name(_ id: CogStateID) -> String { labels[id] ?? id.description }

    private func render(_ event: CogProbeEvent) -> String {
        switch event {
        case .turnBegan(let turn):
            return "turn \(turn.id) \(turn.name) \(turn.origin.rawValue)" + (turn.cause.map { " after \($0)" } ?? "")
        case .turnEnded(let turn):
            return "end \(turn)"
        case .stateCreated(let info, _):
            labels[info.id] = info.label
            return "create \(info.label) \(info.shape.rawValue)"
        case .registered(let info):
            labels[info.id] = info.name
            return "register \(info.name) \(info.kind.rawValue)"
        case .seeded(let state, let value):
            return "seed \(name(state)) \(value)"
        case .write(let state, let old, let new):
            return "write \(name(state)) \(old) -> \(new)"
        case .writeDiscarded(let state, let value):
            return "discard-write \(name(state)) \(value)"
        case .recompute(let state, let old, let new, let changed, let trigger):
            let oldText = old.map { "\($0)" } ?? "nil"
            let newText = new.map { "\($0)" } ?? "nil"
            return "recompute \(name(state)) \(oldText) -> \(newText) \(changed ? "changed" : "gated")"
                + (trigger.map { " by \(name($0))" } ?? "")
        case .boundaryAttached(let state):
            return "boundary \(name(state))"
        case .notice(let state):
            return "notice \(name(state))"
        case .reactionRun(let registration):
            return "react \(name(registration))"
        case .generationStarted(let state, let generation, let policy):
            return "start \(name(state)) #\(generation) \(policy.rawValue)"
        case .generationCancelled(let state, let generation):
            return "cancel \(name(state)) #\(generation)"
        case .generationAccepted(let state, let generation, let outcome):
            return "accept \(name(state)) #\(generation) \(outcome)"
        case .generationRejected(let state, let generation):
            return "reject \(name(state)) #\(generation)"
        case .refreshResolved(let state, let generation, let outcome):
            return "refresh \(name(state)) #\(generation.map(String.init) ?? "-") \(outcome)"
        case .turnDropped(let name, let reason):
            return "drop \(name): \(reason)"
        case .scopeOpened(let registration, let name, _):
            labels[registration] = name
            return "open \(name)"
        case .scopeRetired(let registration):
            return "retire \(self.name(registration))"
        case .taskStarted(let registration, let name):
            labels[registration] = name
            return "task \(name)"
        case .taskCancelled(let registration):
            return "task-cancel \(self.name(registration))"
        case .taskFinished(let registration):
            return "task-finish \(self.name(registration))"
        case .watchRun(let registration, let old, let new):
            return "watch \(name(registration)) \(old.map { "\($0)" } ?? "nil") -> \(new)"
        case .leaseRenewed(let state, let holder):
            return "renew \(name(state)) by \(holder)"
        case .graceScheduled(let state, let grace):
            return "grace \(name(state)) \(grace)"
        case .graceExpired(let state):
            return "expire \(name(state))"
        case .stateReleased(let state, let reason):
            return "release \(name(state)) \(reason.rawValue)"
        case .offer(let state, _, let value):
            return "offer \(name(state)) \(value)"
        case .asyncStatus(let state, let kind, let isLoading, _, _):
            return "status \(name(state)) \(kind)\(isLoading ? " loading" : "")"
        case .dependenciesChanged(let consumer, let producers):
            return "deps \(name(consumer)) <- [\(producers.map(name).joined(separator: ", "))]"
        case .unregistered(let registration):
            return "unregister \(name(registration))"
        case .diagnostic(let diagnostic):
            return "diagnostic \(diagnostic.kind.rawValue): \(diagnostic.message)"
        }
    }
}
