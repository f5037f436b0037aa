/// The flush that ends every outer turn, in the normative order of the core design (§3.2):
///
/// 1. compare staged and current source values, keeping real changes;
/// 2. push dirty flags from changed sources, running no selector;
/// 3. pull dirty hot roots (UI boundaries, reaction dependencies), leaving cold branches dirty;
/// 4. notify changed boundary states;
/// 5. run changed reactions in registration order;
/// 6. return to idle, or drain queued write-back turns (done by the turn engine).
extension Graph {
    func flush() {
        // Both lists are the graph's, emptied keeping their storage, so a turn allocates none.
        for source in turnWritten {
            let result = source.commitStaged(in: self)
            if result != .unchanged { changedSources.append((source, result)) }
        }
        turnWritten.removeAll(keepingCapacity: true)
        for (source, result) in changedSources {
            if source.hasBoundary { pendingBoundaries.append(source) }
            markConsumers(of: source, direct: result == .value ? .dirty : .check)
        }
        changedSources.removeAll(keepingCapacity: true)
        for root in pendingBoundaries {
            settle(root)
        }
        for reaction in pendingReactions {
            settle(reaction, runRoot: false)
        }
        notifyBoundaries()
        runPendingReactions(exports: true)
        runPendingReactions(exports: false)
        pendingReactions.removeAll(keepingCapacity: true)
    }

    /// Marks direct consumers of `source` DIRTY (or CHECK, when only an async status changed and
    /// some consumers read only the value) and everything downstream CHECK, noting hot roots.
    /// Iterative, so a deep chain cannot overflow the stack.
    func markConsumers(of source: Node, direct: SettleMark = .dirty) {
        let base = markStack.count
        for link in source.consumers {
            let consumer = link.consumer
            switch consumer.mark {
            case .clean:
                consumer.mark = direct
                consumer.dirtiedBy = source.id
                noteHotRoot(consumer)
                markStack.append(consumer)
            case .check where direct == .dirty:
                consumer.mark = .dirty
                consumer.dirtiedBy = source.id
            case .check, .dirty:
                break
            }
        }
        while markStack.count > base {
            let node = markStack.removeLast()
            for link in node.consumers where link.consumer.mark == .clean {
                link.consumer.mark = .check
                noteHotRoot(link.consumer)
                markStack.append(link.consumer)
            }
        }
    }

    private func noteHotRoot(_ node: Node) {
        if node.hasBoundary {
            pendingBoundaries.append(node)
        } else if node.descriptor.shape == .reaction {
            // A reaction-shaped node is a `ReactionNode`: only `registerReaction` makes nodes of that shape.
            pendingReactions.append(unsafeDowncast(node, to: ReactionNode.self))
        }
    }

    private func notifyBoundaries() {
        for root in pendingBoundaries {
            if let statusBoundary = root.statusBoundary, let fingerprint = root.statusFingerprint,
                statusBoundary.notifyChanges(to: fingerprint)
            {
                probe?.signal(.notice(state: CogStateID(root.id)))
            }
            guard let boundary = root.boundary, boundary.notifiedVersion != root.version else { continue }
            boundary.notifiedVersion = root.version
            probe?.signal(.notice(state: CogStateID(root.id)))
            boundary.notifyChange()
        }
        pendingBoundaries.removeAll(keepingCapacity: true)
    }

    /// Runs dirty reactions in registration order; a reaction registered meanwhile joins the tail.
    /// Export subscribers run first (step 4, offering values); reactions, watches and scopes after.
    private func runPendingReactions(exports: Bool) {
        guard !pendingReactions.isEmpty else { return }
        pendingReactions.sort { $0.order < $1.order }
        var index = 0
        while index < pendingReactions.count {
            let reaction = pendingReactions[index]
            index += 1
            guard (reaction.kind == .export) == exports else { continue }
            if reaction.mark == .dirty, !reaction.isRetired { recompute(reaction, trigger: reaction.dirtiedBy) }
        }
    }
}
