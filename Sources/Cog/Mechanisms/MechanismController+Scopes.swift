/// Scopes: work tied to a fact. Each form reads its input after the turn settles (so removing and
/// restoring a value within one turn restarts nothing) and runs its body once per opening with a
/// fresh sub-controller, which retires when the opening ends. The body runs just after the scope's
/// own run, outside it: a turn the body starts while the runtime is idle runs at once, so a body
/// that retires its own scope sees every primitive after that turn refused. Scopes issue no
/// writes and release no state of their own.
extension MechanismController {
    /// Opens while `condition` is true: the body runs once with a sub-controller, which retires
    /// when the condition becomes false. Opening again runs the body with a new controller.
    public func scope<Condition: CogReference>(
        _ condition: Condition, name: String? = nil, fileID: String = #fileID, line: Int = #line,
        _ body: @escaping (MechanismController) -> Void
    ) where Condition.Value == Bool {
        let scopeName = registrationName(name, fileID: fileID, line: line)
        var open: MechanismController?
        registerScopeReaction(name: scopeName) { [unowned self] c in
            let isOpen = c[condition]
            if isOpen, open == nil {
                let controller = openScope(named: scopeName, identity: nil)
                open = controller
                graph.afterTheRunningReaction { body(controller) }
            } else if !isOpen, let current = open {
                current.owner.retire(in: graph)
                open = nil
            }
        }
    }

    /// Opens for the identity `identity` holds: nil means no opening; changing A to B retires A's
    /// opening and opens B's; keeping A keeps its work running.
    public func scope<Identity: CogReference, ID: Equatable>(
        _ identity: Identity, name: String? = nil, fileID: String = #fileID, line: Int = #line,
        _ body: @escaping (ID, MechanismController) -> Void
    ) where Identity.Value == ID? {
        let scopeName = registrationName(name, fileID: fileID, line: line)
        var open: (id: ID, controller: MechanismController)?
        registerScopeReaction(name: scopeName) { [unowned self] c in
            let id = c[identity]
            if let open, open.id == id { return }
            if let current = open {
                current.controller.owner.retire(in: graph)
                open = nil
            }
            guard let id else { return }
            let controller = openScope(named: scopeName, identity: "\(id)")
            open = (id, controller)
            graph.afterTheRunningReaction { body(id, controller) }
        }
    }

    /// One opening per identity in the collection: adding B to [A] opens B and keeps A; removing
    /// A retires only A; reordering restarts nothing. Identities must be unique.
    public func scope<Identities: CogReference, ID: Hashable>(
        each identities: Identities, name: String? = nil, fileID: String = #fileID, line: Int = #line,
        _ body: @escaping (ID, MechanismController) -> Void
    ) where Identities.Value: Collection, Identities.Value.Element == ID {
        let scopeName = registrationName(name, fileID: fileID, line: line)
        var open: [ID: MechanismController] = [:]
        registerScopeReaction(name: scopeName) { [unowned self] c in
            let ids = Array(c[identities])
            var seen: Set<ID> = []
            for id in ids where !seen.insert(id).inserted {
                graph.fail(
                    .duplicateScopeIdentity,
                    "scope '\(scopeName)' got the identity '\(id)' twice in one collection; give each entry a distinct identity",
                    path: [scopeName])
            }
            for (id, controller) in open where !seen.contains(id) {
                controller.owner.retire(in: graph)
                open[id] = nil
            }
            var opened: Set<ID> = []
            for id in ids where open[id] == nil && opened.insert(id).inserted {
                let controller = openScope(named: scopeName, identity: "\(id)")
                open[id] = controller
                graph.afterTheRunningReaction { body(id, controller) }
            }
        }
    }

    private func registerScopeReaction(name: String, _ body: @escaping (Reader<Void>) -> Void) {
        graph.registerReaction(name: name, kind: .scope, owner: owner, body: body)
    }

    /// Opens one scope instance owned by this controller.
    private func openScope(named name: String, identity: String?) -> MechanismController {
        let childName = identity.map { "\(name)[\($0)]" } ?? name
        let child = RegistrationOwner(id: graph.claimNodeID(), name: childName)
        owner.children.append(child)
        graph.probe?.record(.scopeOpened(registration: CogStateID(child.id), name: childName, identity: identity))
        return MechanismController(owner: child, graph: graph)
    }
}

extension MechanismController {
    /// The public library's name for a scope gated by a `Bool`: while `gate` is true the body
    /// runs once with a sub-controller, which retires when the gate falls.
    public func whenever<Gate: CogReference>(
        _ gate: Gate, name: String? = nil, fileID: String = #fileID, line: Int = #line,
        _ body: @escaping (MechanismController) -> Void
    ) where Gate.Value == Bool {
        scope(gate, name: name, fileID: fileID, line: line, body)
    }
}
