/// The descriptor of one registered reaction: its name is its label.
final class ReactionDescriptor: AnyDescriptor, @unchecked Sendable {
    init(name: String) {
        super.init(label: name, shape: .reaction, isKeyed: false)
    }
}

/// A registered reaction: a consumer with no value that re-runs, in registration order, after a
/// dependency changed.
final class ReactionNode: Node {
    /// Nonisolated for the reason `SourceNode`'s is.
    nonisolated deinit {}

    let order: Int
    let kind: CogRegistrationInfo.Kind
    let body: (Reader<Void>) -> Void
    /// Set once unregistered (its owner retired): it never runs again.
    var isRetired = false
    /// Work its body asked to run once the run is over (a scope's body for an opening), in order.
    var workAfterRun: [() -> Void] = []
    /// How a turn chain names it: its registration name, or only where it was registered
    /// (`fileID:line`) when it was given no name, as the public library's chain names it.
    let chainName: String

    init(
        id: Int, name: String, chainName: String, kind: CogRegistrationInfo.Kind, order: Int,
        body: @escaping (Reader<Void>) -> Void
    ) {
        self.chainName = chainName
        self.order = order
        self.kind = kind
        self.body = body
        super.init(id: id, descriptor: ReactionDescriptor(name: name), key: nil, mark: .dirty)
    }

    /// A reaction's run is reported by `run` itself (`reactionRun`), not as a recompute.
    override func recomputeReporting(to probe: any CogProbe, in graph: Graph, trigger: CogStateID?) {
        graph.runOnce(self)
    }

    /// Runs the work the last run deferred; work deferred by a run that this work causes runs
    /// after that run, not here.
    func runWorkAfterRun() {
        let work = workAfterRun
        workAfterRun = []
        for item in work { item() }
    }

    override func run(in graph: Graph) -> Bool {
        guard !isRetired else { return false }
        if graph.currentTurn != nil { graph.turnChain.note(.reaction(chainName)) }
        graph.probe?.signal(.reactionRun(registration: CogStateID(id)))
        body(Reader(graph: graph, consumer: self))
        return false
    }
}

extension Graph {
    /// Registers a reaction. Outside a flush its first run finishes before this returns; during a
    /// flush it joins the reaction queue after the work already scheduled.
    @discardableResult
    func registerReaction(
        name: String, kind: CogRegistrationInfo.Kind = .reaction, owner: RegistrationOwner?,
        body: @escaping (Reader<Void>) -> Void
    ) -> ReactionNode? {
        if let owner, owner.isRetired { return nil }
        // An unnamed registration is `Owner.fileID:line`; a chain names it by the site alone.
        let site = owner.flatMap { owner -> String? in
            let prefix = owner.name + "."
            guard name.hasPrefix(prefix) else { return nil }
            let rest = name.dropFirst(prefix.count)
            return rest.contains(".swift:") ? String(rest) : nil
        }
        let reaction = ReactionNode(
            id: claimNodeID(), name: name, chainName: site ?? name, kind: kind, order: nextReactionOrder, body: body)
        nextReactionOrder += 1
        reactions.append(reaction)
        owner?.reactions.append(reaction)
        probe?.record(.registered(CogRegistrationInfo(id: reaction.id, name: name, kind: kind)))
        if phase == .flushing {
            pendingReactions.append(reaction)
        } else {
            recompute(reaction, trigger: 0)
            drainQueuedTurnsIfIdle()
        }
        return reaction
    }
}

extension Graph {
    /// Runs `work` once the reaction running now has finished its run, outside it: a scope's body
    /// runs there, so a turn it starts while the runtime is idle runs at once (and may retire the
    /// scope, which every primitive after it then sees) instead of queueing behind the scope's
    /// own run. With no reaction running, `work` runs now.
    func afterTheRunningReaction(_ work: @escaping () -> Void) {
        guard let running = trackingStack.last, running.descriptor.shape == .reaction else {
            work()
            return
        }
        // A reaction-shaped node is a `ReactionNode`: only `registerReaction` makes nodes of that shape.
        unsafeDowncast(running, to: ReactionNode.self).workAfterRun.append(work)
    }
}
