/// Async states: requests, generations per policy, publishing pending, success and failure as
/// turns of their own, and rejecting late results.
extension Graph {
    /// Records that `node` was written in the turn in progress.
    func noteWritten(_ node: Node) {
        guard !node.isStaged else { return }
        node.isStaged = true
        turnWritten.append(node)
    }

    /// Takes a request for new work. While a run is in flight, `.queue` and `.exhaustLatest`
    /// only note it (the status is already pending); otherwise the turn that starts it is scheduled.
    func request<Value>(_ request: AsyncRequest<Value>, for node: AsyncNode<Value>) {
        switch node.policy {
        case .queue where !node.inFlight.isEmpty:
            node.queued.append(request)
        case .exhaustLatest where !node.inFlight.isEmpty:
            if let previous = node.coalesced { supersede([previous]) }
            node.coalesced = request
        default:
            node.requests.append(request)
            scheduleStart(of: node)
        }
    }

    private func scheduleStart<Value>(of node: AsyncNode<Value>) {
        guard !node.isStartScheduled else { return }
        node.isStartScheduled = true
        deferTurn(name: "\(node.label) pending", origin: .asyncCompletion) { [unowned self] _ in
            node.isStartScheduled = false
            guard existingNode(node.descriptor, key: node.key) === node else { return }
            startRequests(of: node)
        }
    }

    /// Inside the pending turn: starts what the policy allows and stages the pending status.
    private func startRequests<Value>(of node: AsyncNode<Value>) {
        var requests = node.requests
        node.requests.removeAll()
        switch node.policy {
        case .latest:
            guard let latest = requests.popLast() else { return }
            supersede(requests)
            node.replacedWorkThisTurn = !node.inFlight.isEmpty
            cancelInFlight(of: node)
            start(latest, for: node)
        case .queue:
            node.queued.append(contentsOf: requests)
            guard node.inFlight.isEmpty, !node.queued.isEmpty else { return }
            start(node.queued.removeFirst(), for: node)
        case .exhaustLatest:
            guard let latest = requests.popLast() else { return }
            supersede(requests)
            start(latest, for: node)
        case .merged:
            guard !requests.isEmpty else { return }
            for request in requests { start(request, for: node) }
        }
        node.stageStatus(.pending, isLoading: true, in: self)
    }

    /// Releasing an async state cancels its work and resolves every waiting handle as released.
    func releaseGenerations<Value>(of node: AsyncNode<Value>) {
        for run in node.inFlight {
            run.task.cancel()
            probe?.record(.generationCancelled(state: CogStateID(node.id), generation: run.generation))
            resolve(run.handles, .released, node: node, generation: run.generation)
        }
        node.inFlight.removeAll()
        let waiting = node.requests + node.queued + (node.coalesced.map { [$0] } ?? [])
        for handle in waiting.flatMap(\.handles) + node.handlesForNextRun { handle.resolve(.released) }
        node.requests.removeAll()
        node.queued.removeAll()
        node.coalesced = nil
        node.handlesForNextRun.removeAll()
    }

    private func supersede<Value>(_ requests: [AsyncRequest<Value>]) {
        for handle in requests.flatMap(\.handles) { handle.resolve(.superseded) }
    }

    /// Cog-led cancellation: the generations stop silently and their handles are superseded.
    private func cancelInFlight<Value>(of node: AsyncNode<Value>) {
        for run in node.inFlight {
            run.task.cancel()
            probe?.record(.generationCancelled(state: CogStateID(node.id), generation: run.generation))
            resolve(run.handles, .superseded, node: node, generation: run.generation)
        }
        node.inFlight.removeAll()
    }

    private func start<Value>(_ request: AsyncRequest<Value>, for node: AsyncNode<Value>) {
        node.lastGeneration += 1
        let generation = node.lastGeneration
        for handle in request.handles { handle.generation = generation }
        let context = AsyncRunContext(generation: generation, label: node.label)
        // The task carries the state's label (`forecast[90210]`), so task tools and
        // `CogTaskDiagnostic.currentTaskName` name the work.
        let taskName = context.label
        probe?.record(.generationStarted(state: CogStateID(node.id), generation: generation, policy: node.policy))
        let task: Task<Void, Never>
        switch workStandIn == nil ? request.work : work(request.work, of: node, generation: generation) {
        case .run(let operation):
            task = Task(name: taskName) { [lifeline] in
                let result: Result<Value, any Error>
                do {
                    result = .success(try await AsyncRunContext.$current.withValue(context) { try await operation() })
                } catch {
                    result = .failure(error)
                }
                lifeline.current?.finish(node, generation: generation, result)
                context.didHandleEvent()
            }
        case .stream(let iterate):
            task = Task(name: taskName) { [lifeline] in
                let sink = ElementSink<Value> { element in
                    lifeline.current?.accept(element, from: node, generation: generation)
                    context.didHandleEvent()
                }
                do {
                    try await AsyncRunContext.$current.withValue(context) { try await iterate(sink) }
                    lifeline.current?.endStream(of: node, generation: generation, error: nil)
                } catch {
                    lifeline.current?.endStream(of: node, generation: generation, error: error)
                }
                context.didHandleEvent()
            }
        }
        node.inFlight.append(
            InFlightGeneration(
                generation: generation, task: task, handles: request.handles, context: context))
    }

    /// A one-shot generation ended: publish it as its own turn if it is still current.
    private func finish<Value>(_ node: AsyncNode<Value>, generation: Int, _ result: Result<Value, any Error>) {
        defer { reached(.asyncCompletionCheck) }
        guard let index = node.inFlight.firstIndex(where: { $0.generation == generation }) else {
            probe?.record(.generationRejected(state: CogStateID(node.id), generation: generation))
            return
        }
        let run = node.inFlight.remove(at: index)
        if isInvalidated(node) {
            probe?.record(.generationRejected(state: CogStateID(node.id), generation: generation))
            resolve(run.handles, .superseded, node: node, generation: generation)
            return
        }
        let stillLoading = !node.inFlight.isEmpty
        switch result {
        case .success(let value):
            performTurn(name: "\(node.label) success", origin: .asyncCompletion) { [unowned self] _ in
                node.stageStatus(.success, value: value, isLoading: stillLoading, in: self)
            }
            probe?.record(.generationAccepted(state: CogStateID(node.id), generation: generation, outcome: "success"))
            resolve(run.handles, .success(value), node: node, generation: generation)
        case .failure(let error):
            performTurn(name: "\(node.label) failure", origin: .asyncCompletion) { [unowned self] _ in
                node.stageStatus(.failure, error: error, isLoading: stillLoading, in: self)
            }
            probe?.record(.generationAccepted(state: CogStateID(node.id), generation: generation, outcome: "failure"))
            resolve(run.handles, .failure(error), node: node, generation: generation)
        }
        startNextWaiting(for: node)
    }

    /// Whether `node`'s in-flight `.latest` work was started from inputs that have changed since:
    /// a dependency it read is different, and nothing has re-run it yet (nobody is reading it).
    /// Such a result answers a question no one asks any more, so it is dropped; the next read
    /// runs the selector again for the new inputs.
    private func isInvalidated<Value>(_ node: AsyncNode<Value>) -> Bool {
        node.policy == .latest && node.mark == .dirty
    }

    /// `.queue` and `.exhaustLatest`: after a run ends, the next waiting request gets its own
    /// pending turn.
    private func startNextWaiting<Value>(for node: AsyncNode<Value>) {
        if node.policy == .queue, !node.queued.isEmpty {
            scheduleStart(of: node)
        } else if node.policy == .exhaustLatest, let next = node.coalesced {
            node.coalesced = nil
            node.requests.append(next)
            scheduleStart(of: node)
        }
    }

    /// A stream element: rejected if its generation was replaced; an equal element makes no turn.
    private func accept<Value>(_ element: Value, from node: AsyncNode<Value>, generation: Int) {
        defer { reached(.asyncCompletionCheck) }
        guard let index = node.inFlight.firstIndex(where: { $0.generation == generation }) else {
            probe?.record(.generationRejected(state: CogStateID(node.id), generation: generation))
            return
        }
        if isInvalidated(node) {
            probe?.record(.generationRejected(state: CogStateID(node.id), generation: generation))
            return
        }
        let isFirst = !node.inFlight[index].hasYielded
        node.inFlight[index].hasYielded = true
        let unchanged = node.kind == .success && !node.isLoading && !node.differs(node.storage.pointee, element)
        if !unchanged {
            performTurn(name: "\(node.label) success", origin: .asyncCompletion) { [unowned self] _ in
                node.stageStatus(.success, value: element, isLoading: false, in: self)
            }
            probe?.record(.generationAccepted(state: CogStateID(node.id), generation: generation, outcome: "success"))
        }
        if isFirst {
            let handles = node.inFlight[index].handles
            node.inFlight[index].handles.removeAll()
            resolve(handles, .success(element), node: node, generation: generation)
        }
    }

    /// A stream ended naturally (nothing is published) or with an error (a current error publishes
    /// a failure that keeps the last value).
    private func endStream<Value>(of node: AsyncNode<Value>, generation: Int, error: (any Error)?) {
        defer { reached(.asyncCompletionCheck) }
        guard let index = node.inFlight.firstIndex(where: { $0.generation == generation }) else {
            if error != nil {
                probe?.record(.generationRejected(state: CogStateID(node.id), generation: generation))
            }
            return
        }
        let run = node.inFlight.remove(at: index)
        guard let error else {
            resolve(run.handles, .success(node.storage.pointee), node: node, generation: generation)
            return
        }
        performTurn(name: "\(node.label) failure", origin: .asyncCompletion) { [unowned self] _ in
            node.stageStatus(.failure, error: error, isLoading: false, in: self)
        }
        probe?.record(.generationAccepted(state: CogStateID(node.id), generation: generation, outcome: "failure"))
        resolve(run.handles, .failure(error), node: node, generation: generation)
    }

    private func resolve<Value>(
        _ handles: [CogRefresh<Value>], _ outcome: CogRefresh<Value>.Outcome, node: Node, generation: Int
    ) {
        for handle in handles where handle.currentOutcome == nil {
            handle.resolve(outcome)
            probe?.record(.refreshResolved(state: CogStateID(node.id), generation: generation, outcome: outcome.name))
        }
    }

    // MARK: Refresh and status reads

    /// Demands a fresh generation: runs the selector again (or, for a never-read state, for the
    /// first time) and returns a handle on the generation that run starts.
    func refresh<Value>(_ address: CogAddress<Value>) -> CogRefresh<Value> {
        let handle = CogRefresh<Value>()
        if let running = trackingStack.last, running.descriptor.shape != .reaction {
            fail(.writeDuringComputation, computationRefusal(turn: "refresh(_:)"), path: runningPath)
            handle.resolve(.superseded)
            return handle
        }
        // An async address's descriptor makes an `AsyncNode<Value>`: the address's type fixes the node's.
        let node = unsafeDowncast(self.node(address.descriptor, key: address.key), to: AsyncNode<Value>.self)
        node.handlesForNextRun.append(handle)
        // A checked node whose dependencies settle unchanged becomes clean without running, so
        // the handle would wait for a run that never comes: the selector runs whenever settling
        // left it waiting.
        if node.mark != .clean { settle(node) }
        if !node.handlesForNextRun.isEmpty { recompute(node, trigger: 0) }
        drainQueuedTurnsIfIdle()
        renewGrace(node, by: "refresh")
        return handle
    }

    /// A status read inside a selector or reaction: tracks the whole status.
    func readStatusTracked<Value>(_ address: CogAddress<Value>, by consumer: Node) -> CogStatus<Value> {
        let node = node(address.descriptor, key: address.key)
        if node.isRunning || node.isSettling {
            reportCycle(at: node)
        } else {
            settle(node)
            track(node, by: consumer, status: true)
        }
        // An async address's descriptor makes an `AsyncNode<Value>`: the address's type fixes the node's.
        return unsafeDowncast(node, to: AsyncNode<Value>.self).status
    }

    /// A one-time status read.
    func peekStatus<Value>(_ address: CogAddress<Value>) -> CogStatus<Value> {
        let node = node(address.descriptor, key: address.key)
        settleForPeek(node)
        // An async address's descriptor makes an `AsyncNode<Value>`: the address's type fixes the node's.
        return unsafeDowncast(node, to: AsyncNode<Value>.self).status
    }

    /// A UI status read: each field the caller reads is tracked on its own.
    func readStatusAtBoundary<Value>(_ address: CogAddress<Value>) -> CogStatus<Value> {
        // An async address's descriptor makes an `AsyncNode<Value>`: the address's type fixes the node's.
        let node = unsafeDowncast(self.node(address.descriptor, key: address.key), to: AsyncNode<Value>.self)
        settleForOneTimeRead(node)
        let boundary =
            node.statusBoundary
            ?? {
                let boundary = StatusBoundary(notified: node.statusFingerprint!)
                node.statusBoundary = boundary
                probe?.record(.boundaryAttached(state: CogStateID(node.id)))
                endGraceWhileHeld(node)
                return boundary
            }()
        return node.status.observed(by: boundary)
    }
}
