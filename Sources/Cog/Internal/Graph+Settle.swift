/// The lazy pull: bringing a node up to date, running selectors, and capturing their dependencies.
///
/// Nothing here recurses on the graph's depth: a CHECK walk keeps its own stack, so a 10,000-deep
/// chain settles in constant native stack. The only nesting left is a selector reading a
/// never-computed or dirty state, which runs that state's selector inside the read.
extension Graph {
    /// Brings `node` up to date: recompute if dirty, else ask dependencies in read order and
    /// recompute at the first one that changed; a consumer never refreshes a dependency its new run
    /// no longer reads.
    ///
    /// - Parameter runRoot: false for a reaction settled during a flush: it becomes dirty or clean
    ///   but runs later, in registration order.
    func settle(_ node: Node, runRoot: Bool = true) {
        switch node.mark {
        case .clean:
            return
        case .dirty:
            if runRoot { recompute(node, trigger: node.dirtiedBy) }
            return
        case .check:
            break
        }
        let base = settleStack.count
        if node.isSettling {
            reportCycle(at: node)
            return
        }
        node.isSettling = true
        settleStack.append((node, 0))
        while settleStack.count > base {
            let top = settleStack.count - 1
            let current = settleStack[top].node
            var index = settleStack[top].index
            var descended = false
            var trigger = 0
            while index < current.dependencies.count {
                let dependency = current.dependencies[index]
                let producer = dependency.producer
                if producer.mark == .check {
                    if producer.isSettling || producer.isRunning {
                        reportCycle(at: producer)
                        index += 1
                        continue
                    }
                    settleStack[top].index = index
                    producer.isSettling = true
                    settleStack.append((producer, 0))
                    descended = true
                    break
                }
                if producer.mark == .dirty { recompute(producer, trigger: producer.dirtiedBy) }
                let producerVersion = dependency.observesStatus ? producer.statusVersion : producer.version
                if producerVersion != dependency.observedVersion {
                    trigger = producer.id
                    break
                }
                index += 1
            }
            if descended { continue }
            settleStack.removeLast()
            current.isSettling = false
            if trigger == 0 {
                current.mark = .clean
            } else if current !== node || runRoot {
                recompute(current, trigger: trigger)
            } else {
                current.mark = .dirty
                current.dirtiedBy = trigger
            }
        }
    }

    /// Runs `node` once, captures its dependencies, and bumps its version if the value changed;
    /// an attached probe hears of the run from the node, which knows its value's type.
    func recompute(_ node: Node, trigger: Int) {
        if node.isRunning {
            reportCycle(at: node)
            return
        }
        if let probe {
            node.recomputeReporting(to: probe, in: self, trigger: trigger == 0 ? nil : CogStateID(trigger))
        } else {
            runOnce(node)
        }
        if node.descriptor.shape == .reaction {
            // A reaction node, so the cast holds; a scope's bodies run now that its run is over.
            let reaction = unsafeDowncast(node, to: ReactionNode.self)
            if !reaction.workAfterRun.isEmpty { reaction.runWorkAfterRun() }
        }
    }

    /// The body of `recompute`: runs the selector with tracking and reconciles the edges.
    @discardableResult
    func runOnce(_ node: Node) -> Bool {
        // A first computation that reads an uncomputed state computes it inside itself; a long
        // chain read cold from its far end nests as deep as it is long, and would exhaust the
        // stack long before a warm chain (settled iteratively) would notice its length.
        let isCold = node.runStamp == 0
        if isCold {
            coldDepth += 1
            if coldDepth == Self.coldNestingBound + 1 { reportColdNesting(at: node) }
        }
        defer { if isCold { coldDepth -= 1 } }
        runStamp += 1
        node.runStamp = runStamp
        node.runCursor = 0
        node.scratchBase = newDependencies.count
        node.isRunning = true
        node.settleDepthAtRun = settleStack.count
        trackingStack.append(node)

        let changed = node.run(in: self)

        trackingStack.removeLast()
        node.isRunning = false
        node.mark = .clean
        if changed {
            node.version += 1
            node.statusVersion += 1
        }
        reconcileDependencies(of: node)
        return changed
    }

    /// Records that the running `consumer` read `producer`, reusing the previous edge when the read
    /// order is unchanged and ignoring a second read of the same producer in one run.
    func track(_ producer: Node, by consumer: Node, status: Bool = false) {
        let stamp = consumer.runStamp
        let observed = status ? producer.statusVersion : producer.version
        if producer.readStamp == stamp {
            if status { upgradeToStatus(producer, by: consumer) }
            return
        }
        let cursor = consumer.runCursor
        if newDependencies.count == consumer.scratchBase, cursor < consumer.dependencies.count,
            consumer.dependencies[cursor].producer === producer
        {
            consumer.dependencies[cursor].observedVersion = observed
            consumer.dependencies[cursor].observesStatus = status
            consumer.dependencies[cursor].savedStamp = producer.readStamp
            consumer.runCursor = cursor + 1
        } else {
            newDependencies.append(
                Dependency(
                    producer: producer, observedVersion: observed, observesStatus: status,
                    savedStamp: producer.readStamp))
        }
        producer.readStamp = stamp
    }

    /// A run that read a producer's value and now reads its status follows the whole status.
    private func upgradeToStatus(_ producer: Node, by consumer: Node) {
        for index in 0..<consumer.runCursor where consumer.dependencies[index].producer === producer {
            consumer.dependencies[index].observesStatus = true
            consumer.dependencies[index].observedVersion = producer.statusVersion
            return
        }
        for index in consumer.scratchBase..<newDependencies.count where newDependencies[index].producer === producer {
            newDependencies[index].observesStatus = true
            newDependencies[index].observedVersion = producer.statusVersion
            return
        }
    }

    /// After a run: links producers read for the first time, unlinks those not read again, and
    /// restores the read stamps nested runs rely on.
    private func reconcileDependencies(of node: Node) {
        let matched = node.runCursor
        let base = node.scratchBase
        let stamp = node.runStamp
        let previousCount = node.dependencies.count
        if matched < previousCount || newDependencies.count > base {
            for index in matched..<previousCount {
                node.dependencies[index].producer.staleStamp = stamp
            }
            for index in base..<newDependencies.count {
                let producer = newDependencies[index].producer
                if producer.staleStamp == stamp {
                    producer.staleStamp = 0
                } else {
                    // Most states that are read at all are read by a few: room for four at
                    // once saves growing the list link by link.
                    if producer.consumers.isEmpty { producer.consumers.reserveCapacity(4) }
                    producer.consumers.append(ConsumerLink(consumer: node))
                    if producer.graceDeadline != nil { endGraceWhileHeld(producer) }
                }
            }
            for index in matched..<previousCount {
                let producer = node.dependencies[index].producer
                guard producer.staleStamp == stamp else { continue }
                producer.staleStamp = 0
                unlink(consumer: node, from: producer)
                noteMaybeUnused(producer)
            }
            node.dependencies.removeSubrange(matched...)
            node.dependencies.append(contentsOf: newDependencies[base...])
            newDependencies.removeSubrange(base...)
            probe?.recordDependenciesChanged(
                consumer: CogStateID(node.id),
                producers: CogProducerList(node.dependencies))
        }
        for dependency in node.dependencies {
            dependency.producer.readStamp = dependency.savedStamp
        }
    }

    /// Removes `consumer` from `producer`'s consumer list, keeping the order of the rest.
    func unlink(consumer: Node, from producer: Node) {
        if let index = producer.consumers.firstIndex(where: { $0.consumer === consumer }) {
            producer.consumers.remove(at: index)
        }
    }

    /// Reports the cycle that reading `node` closes, naming the whole keyed path.
    func reportCycle(at node: Node) {
        let path = cyclePath(closedBy: node)
        fail(.cycle, Self.cycleMessage(path), path: path)
    }

    /// The nodes being settled or run now, outermost first: CHECK walks and running selectors
    /// interleaved in the order they began.
    var activePath: [Node] {
        var path: [Node] = []
        var settleIndex = 0
        for running in trackingStack {
            while settleIndex < running.settleDepthAtRun {
                path.append(settleStack[settleIndex].node)
                settleIndex += 1
            }
            path.append(running)
        }
        while settleIndex < settleStack.count {
            path.append(settleStack[settleIndex].node)
            settleIndex += 1
        }
        return path
    }
}

extension Graph {
    /// The most first computations that may run inside each other.
    static let coldNestingBound = 128

    /// Fails a read whose first computations nest past the bound, naming the chain.
    func reportColdNesting(at node: Node) {
        let chain = trackingStack.suffix(Self.coldNestingBound).map(\.label)
        let outer = chain.first ?? node.label
        fail(
            .coldNesting,
            "reading '\(outer)' needs more than \(Self.coldNestingBound) nested computations of states never read "
                + "before, down to '\(node.label)'. Read the chain from its source end first (or read some links "
                + "on the way), so each computation finds the one below it already computed",
            path: chain + [node.label])
    }
}
