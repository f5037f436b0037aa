/// Who owns a set of registrations: a mechanism, or one opening of a scope. Retiring an owner
/// revokes its authority: its reactions stop, its tasks are cancelled, its child scopes retire,
/// and its controller's turns, registrations and reads no longer act.
@usableFromInline
final class RegistrationOwner {
    let id: Int
    let name: String
    @usableFromInline private(set) var isRetired = false
    /// Whether its registrations have been ended (after `isRetired`; once).
    private var isReleased = false
    var reactions: [ReactionNode] = []
    var tasks: [Int: Task<Void, any Error>] = [:]
    var children: [RegistrationOwner] = []
    /// The controller acting for this owner, kept alive while the owner is live so that work
    /// capturing it weakly keeps working until retirement, and stops after.
    var controller: MechanismController?

    init(id: Int, name: String) {
        self.id = id
        self.name = name
    }

    var taskCountIncludingChildren: Int {
        tasks.count + children.reduce(0) { $0 + $1.taskCountIncludingChildren }
    }

    /// Retires this owner and everything it registered, innermost first; safe to repeat. The
    /// whole subtree is marked retired before any of it is cleaned up, so code that runs during
    /// the cleanup (a cancelled task's handler) finds no part of it still live.
    func retire(in graph: Graph) {
        guard !isRetired else { return }
        markRetired()
        release(in: graph)
    }

    /// Marks this owner and every scope under it retired: `ifLive` answers nil from now on.
    func markRetired() {
        isRetired = true
        for child in children { child.markRetired() }
    }

    /// Ends what a retired owner registered: its scopes' registrations, its reactions, its tasks.
    func release(in graph: Graph) {
        guard !isReleased else { return }
        isReleased = true
        for child in children { child.release(in: graph) }
        children.removeAll()
        for reaction in reactions { graph.unregister(reaction) }
        reactions.removeAll()
        for (id, task) in tasks.sorted(by: { $0.key < $1.key }) {
            task.cancel()
            graph.probe?.record(.taskCancelled(registration: CogStateID(id)))
        }
        tasks.removeAll()
        controller = nil
        graph.probe?.record(.scopeRetired(registration: CogStateID(id)))
    }
}

extension Graph {
    /// A retired controller was asked to read, refresh or discard.
    @usableFromInline
    func failRetired(_ owner: RegistrationOwner, _ operation: StaticString, of label: String? = nil) {
        let subject = label.map { " of '\($0)'" } ?? ""
        fail(
            .retiredController,
            "`\(operation)`\(subject) through the controller of '\(owner.name)' after it was retired; "
                + "after a suspension, use ifLive { $0.\(operation)(...) }", path: [label ?? owner.name])
    }

    /// Removes a reaction from the graph: it will not run again and its dependencies lose it
    /// as a consumer (releasing their leases).
    func unregister(_ reaction: ReactionNode) {
        reaction.isRetired = true
        for dependency in reaction.dependencies {
            unlink(consumer: reaction, from: dependency.producer)
            noteMaybeUnused(dependency.producer)
        }
        reaction.dependencies.removeAll()
        if let index = reactions.firstIndex(where: { $0 === reaction }) { reactions.remove(at: index) }
        probe?.record(.unregistered(registration: CogStateID(reaction.id)))
    }
}
