/// The phases of a runtime between and during turns.
enum TurnPhase {
    /// No turn is running; the next `turn` call starts one.
    case idle
    /// A turn body is staging writes; nested turns join it.
    case accumulating
    /// The outer body returned and the flush runs; a new turn waits in the FIFO queue.
    case flushing
}

/// The turn being accumulated or flushed; the sources it wrote are the graph's `turnWritten`.
struct TurnInProgress {
    let id: Int
    let name: String
}

/// A turn requested during a flush, to run after it in FIFO order.
struct QueuedTurn {
    let name: String
    let origin: CogTurnOrigin
    let cause: Int?
    /// The controller scope that asked for it; a turn of a retired scope is dropped when its time comes.
    let owner: RegistrationOwner?
    let body: (Writer) -> Void
}

/// The turn engine: starting, joining, queueing and staging.
extension Graph {
    /// Runs `body` as a turn: a new outer turn when idle, part of the current one while
    /// accumulating, or a later FIFO turn while flushing. A turn a mechanism's or scope's
    /// controller starts is named for its owner, `Weather.selectLocation(_:)`, as the public
    /// library names it in history; the same op started from the runtime keeps its bare name.
    func performTurn(
        name: String, origin: CogTurnOrigin, owner: RegistrationOwner? = nil, body: @escaping (Writer) -> Void
    ) {
        if let owner, owner.isRetired { return }
        let name = owner.map { "\($0.name).\(name)" } ?? name
        if let running = trackingStack.last, running.descriptor.shape != .reaction {
            fail(
                .writeDuringComputation,
                computationRefusal(turn: name),
                path: runningPath)
            return
        }
        switch phase {
        case .accumulating:
            body(Writer(graph: self, turnID: currentTurn!.id))
        case .flushing:
            let queuedOrigin: CogTurnOrigin = origin == .op ? .reactionWriteBack : origin
            queuedTurns.append(
                QueuedTurn(name: name, origin: queuedOrigin, cause: currentTurn!.id, owner: owner, body: body))
        case .idle where !trackingStack.isEmpty:
            let queuedOrigin: CogTurnOrigin = origin == .op ? .reactionWriteBack : origin
            queuedTurns.append(QueuedTurn(name: name, origin: queuedOrigin, cause: nil, owner: owner, body: body))
        case .idle:
            runTurn(name: name, origin: isAssembling && origin == .op ? .assembly : origin, cause: nil, body: body)
            drainQueuedTurns()
        }
    }

    /// Why a turn (or a refresh, which the public library counts as the op `refresh(_:)`) may not
    /// start while a selector computes: the words client tests look for.
    func computationRefusal(turn name: String) -> String {
        "Cog cannot start turn \(String(reflecting: name)) while automatic cog "
            + "\(runningPath.joined(separator: " -> ")) is computing. Automatic computation may only read "
            + "Cog state. Invoke this op outside automatic computation, from event handling or a reaction."
    }

    /// Queues a turn the runtime itself needs (an async status change) and runs it at the next
    /// safe point: now if nothing is running, else after the current flush or top-level read.
    func deferTurn(name: String, origin: CogTurnOrigin, body: @escaping (Writer) -> Void) {
        queuedTurns.append(QueuedTurn(name: name, origin: origin, cause: currentTurn?.id, owner: nil, body: body))
        drainQueuedTurnsIfIdle()
    }

    /// Runs queued turns if the runtime is idle: no turn, no selector, no settle walk.
    func drainQueuedTurnsIfIdle() {
        guard phase == .idle, trackingStack.isEmpty, settleStack.isEmpty, queueHead < queuedTurns.count else {
            return
        }
        drainQueuedTurns()
    }

    private func runTurn(name: String, origin: CogTurnOrigin, cause: Int?, body: (Writer) -> Void) {
        noteChainedTurn(name)
        let id = nextTurnID
        nextTurnID += 1
        currentTurn = TurnInProgress(id: id, name: name)
        phase = .accumulating
        probe?.record(.turnBegan(CogTurnInfo(id: id, name: name, origin: origin, cause: cause)))
        body(Writer(graph: self, turnID: id))
        phase = .flushing
        flush()
        probe?.signal(.turnEnded(turn: id))
        currentTurn = nil
        phase = .idle
    }

    func drainQueuedTurns() {
        while queueHead < queuedTurns.count {
            let next = queuedTurns[queueHead]
            queueHead += 1
            if let owner = next.owner, owner.isRetired {
                probe?.record(.turnDropped(name: next.name, reason: "its scope '\(owner.name)' retired"))
                continue
            }
            runTurn(name: next.name, origin: next.origin, cause: next.cause, body: next.body)
        }
        if turnChain.hasWarned { lastTurnChainWarning = turnChain.warning }
        // Both lists keep their storage for the next chain, so a lone turn allocates nothing for
        // them; a runaway chain's long lists are let go.
        let keepsStorage = turnsSinceIdle.count <= CogTurnChainDiagnostic.threshold
        turnChain.reset(keepingCapacity: keepsStorage)
        turnsSinceIdle.removeAll(keepingCapacity: keepsStorage)
        queuedTurns.removeAll(keepingCapacity: true)
        queueHead = 0
    }

    /// Stages `value` for the source `address` in turn `turnID`; later reads in that turn see it.
    @inlinable
    func stage<Value>(_ value: Value, for address: CogAddress<Value>, turnID: Int) {
        guard let node = stagingTarget(address.descriptor, key: address.key, turnID: turnID) else { return }
        // The node of a `CogAddress<Value>` is a `ValueNode<Value>`: its descriptor made it for that type.
        unsafeDowncast(node, to: ValueNode<Value>.self).stage(value)
    }

    /// The source a writer of turn `turnID` may stage into, noted as written; nil (after a
    /// diagnostic) when the writer outlived its turn.
    @usableFromInline
    func stagingTarget(_ descriptor: AnyDescriptor, key: StateKey?, turnID: Int) -> Node? {
        guard isLive(turnID: turnID, descriptor: descriptor, key: key, writing: true) else { return nil }
        let source = node(descriptor, key: key)
        if descriptor.isReleasable { renewGrace(source, by: "write") }
        if !source.isStaged {
            source.isStaged = true
            turnWritten.append(source)
        }
        return source
    }

    /// What a writer of turn `turnID` reads: the staged value if written in this turn, else the
    /// settled current value.
    @inlinable
    func writerRead<Value>(_ address: CogAddress<Value>, turnID: Int) -> Value {
        let node = writerReadTarget(address.descriptor, key: address.key, turnID: turnID)
        if node.isStaged {
            // The node of a `CogAddress<Value>` is a `ValueNode<Value>`: its descriptor made it for that type.
            let source = unsafeDowncast(node, to: ValueNode<Value>.self)
            if source.hasStagedValue, let stagedSlot = source.stagedSlot { return stagedSlot.pointee }
        }
        return value(of: node, as: Value.self)
    }

    @usableFromInline
    func writerReadTarget(_ descriptor: AnyDescriptor, key: StateKey?, turnID: Int) -> Node {
        _ = isLive(turnID: turnID, descriptor: descriptor, key: key, writing: false)
        let node = node(descriptor, key: key)
        if !node.isStaged { settleForPeek(node) }
        return node
    }

    /// Whether the writer of turn `turnID` may still be used; if not, says so, naming what it was
    /// used for as the public library's message does ("writing to count", "reading count").
    private func isLive(turnID: Int, descriptor: AnyDescriptor, key: StateKey?, writing: Bool) -> Bool {
        guard phase == .accumulating, let currentTurn, currentTurn.id == turnID else {
            let label = Node.label(descriptor: descriptor, key: key)
            fail(
                .staleWriter,
                "the writer of turn \(turnID) outlived the turn that created it and was used after that turn ended, "
                    + (writing ? "writing to \(label)" : "reading \(label)")
                    + "; a writer is valid only inside its turn's body, so call turn again and use the writer it passes",
                path: [label])
            return false
        }
        return true
    }

    /// Counts the turns run before the runtime returns to idle, the first included; past 64 the
    /// chain is a runaway, reported once with the turns that led to it.
    private func noteChainedTurn(_ name: String) {
        turnsSinceIdle.append(name)
        turnChain.turns += 1
        turnChain.note(.turn(name))
        guard turnChain.turns > CogTurnChainDiagnostic.threshold, !turnChain.hasWarned else { return }
        turnChain.hasWarned = true
        turnChainWarnings += 1
        let chain = turnsSinceIdle.prefix(3) + ["…"] + turnsSinceIdle.suffix(3)
        warn(
            .runawayChain,
            "runaway chain: \(turnsSinceIdle.count) turns without returning to idle: "
                + chain.joined(separator: " -> "), path: turnsSinceIdle)
    }
}
