/// Lifetimes: leases, grace periods on the injected clock (a sleeper per waiting state), release
/// with its cascade, and discard.
///
/// A state is *in use* while something holds it: a consumer edge (another state, or a reaction,
/// watch, scope or export subscriber, whose edges are their leases) or a UI pin. An unused
/// while-observed state waits out its grace, then is released in a turn of its own; transient
/// demand (`peek`, `status.peek`, `refresh`, a write to an ephemeral source) restarts the window.
extension Graph {
    func isInUse(_ node: Node) -> Bool {
        !node.consumers.isEmpty || node.hasBoundary
    }

    func grace(of node: Node) -> Duration {
        node.descriptor.grace ?? defaultGrace
    }

    /// Transient demand on `node`: an unused releasable state gets a full grace window from now.
    @usableFromInline
    func renewGrace(_ node: Node, by holder: StaticString) {
        guard node.descriptor.isReleasable, !isInUse(node) else { return }
        let renewing = node.graceDeadline != nil
        startGrace(node, reporting: !renewing)
        if renewing { probe?.signal(.leaseRenewed(state: CogStateID(node.id), holder: holder)) }
    }

    /// A state lost a holder: if nothing else holds it, its grace starts (unless it already runs).
    func noteMaybeUnused(_ node: Node) {
        guard node.descriptor.isReleasable, node.graceDeadline == nil, !isInUse(node) else { return }
        startGrace(node)
    }

    /// Starts (or restarts) the state's grace window; a restart is reported as the renewal it is,
    /// not as a second schedule. A sleeper already asleep is replaced; the new one, like every
    /// state's first, is made once the MainActor is free (`armGraceTimers`), so a synchronous
    /// stretch that leaves thousands of states unused, or renews them again and again, costs one
    /// task and not one per state or renewal. On a clock that books sleeps (the test clock) the
    /// window is counted now and booked when the clock asks (`Graph+GraceBooking.swift`).
    private func startGrace(_ node: Node, reporting: Bool = true) {
        let grace = grace(of: node)
        let wasWaiting = node.graceDeadline != nil
        node.graceDeadline = clock.now() + grace
        if node.graceSlot < 0 {
            node.graceSlot = graceWaiting.count
            graceWaiting.append(node)
        }
        if reporting { probe?.signal(.graceScheduled(state: CogStateID(node.id), grace: grace)) }
        if clock.booksSleeps { noteGraceWindowOpened(node, wasWaiting: wasWaiting) }
        if let timer = node.graceTimer {
            // One not asleep yet reads the new deadline when it starts.
            guard timer.isAsleep else { return }
            timer.cancel(reportingCheck: true)
            node.graceTimer = nil
        }
        scheduleGraceArming()
    }

    /// Arms the waiting states' sleepers once the MainActor is free, unless that is scheduled.
    private func scheduleGraceArming() {
        guard !isGraceArmingScheduled else { return }
        isGraceArmingScheduled = true
        Task { [lifeline] in lifeline.current?.armGraceTimers() }
    }

    /// Gives every waiting state without a sleeper one, earliest deadline first, after booking
    /// the windows a booking clock has not been asked for and reporting the checks of windows
    /// closed before they had a sleeper.
    private func armGraceTimers() {
        isGraceArmingScheduled = false
        bookPendingGraceWindows()
        for _ in 0..<unarmedReleaseChecks { reached(.automaticReleaseCheck) }
        unarmedReleaseChecks = 0
        let unarmed = graceWaiting.filter { $0.graceTimer == nil && $0.graceDeadline != nil }
        for node in unarmed.sorted(by: { ($0.graceDeadline!, $0.id) < ($1.graceDeadline!, $1.id) }) {
            node.graceTimer = GraceTimer(for: node, in: self)
        }
    }

    /// A state in its grace window is held again (a consumer, a UI pin): the window ends and its
    /// sleeper goes; losing the holder later starts a full window of its own.
    func endGraceWhileHeld(_ node: Node) {
        guard node.graceDeadline != nil else { return }
        stopGrace(node, reportingCheck: true)
    }

    /// Forgets `node`'s grace window and cancels its sleeper.
    func stopGrace(_ node: Node, reportingCheck: Bool) {
        if node.graceSlot >= 0 {
            let last = graceWaiting.removeLast()
            if last !== node {
                graceWaiting[node.graceSlot] = last
                last.graceSlot = node.graceSlot
            }
            node.graceSlot = -1
        }
        if clock.booksSleeps, node.graceDeadline != nil { noteGraceWindowClosed(node) }
        node.graceDeadline = nil
        if let timer = node.graceTimer {
            timer.cancel(reportingCheck: reportingCheck)
            node.graceTimer = nil
        } else if reportingCheck, clock.booksSleeps {
            // On the test clock every window is a sleep that a test may wait on, so keeping the
            // state is a check there even before its sleeper was armed; it is reported once the
            // MainActor is free, as a cancelled sleeper's would be.
            unarmedReleaseChecks += 1
            scheduleGraceArming()
        }
    }

    /// Releases every waiting state whose grace has run out and that is still unused, each in a
    /// turn of its own (origin `graceExpiry`), in deadline order. Whichever due sleeper reaches the
    /// MainActor first handles them all, so the order never depends on how tasks are scheduled.
    func expireDueStates() {
        let now = clock.now()
        let due =
            graceWaiting
            .filter { $0.graceDeadline.map { $0 <= now } ?? true }
            .sorted { ($0.graceDeadline!, $0.id) < ($1.graceDeadline!, $1.id) }
        for node in due {
            stopGrace(node, reportingCheck: false)
            guard !isInUse(node) else {
                reached(.automaticReleaseCheck)
                continue
            }
            probe?.record(.graceExpired(state: CogStateID(node.id)))
            performTurn(name: "\(node.label) grace expiry", origin: .graceExpiry) { [unowned self] _ in
                release(node, reason: .graceExpired)
            }
            reached(.automaticReleaseCheck)
            reached(.automaticRelease)
        }
    }

    /// Releases `node` (inside a turn): out of the table, unlinked from its producers, its async
    /// work cancelled, its boundary notified after it is gone. Producers left with no holder are
    /// released too, unless a grace window of their own is still open.
    func release(_ first: Node, reason: CogReleaseReason) {
        var work: [(Node, CogReleaseReason)] = [(first, reason)]
        while let (node, why) = work.popLast() {
            remove(node)
            stopGrace(node, reportingCheck: false)
            for dependency in node.dependencies {
                let producer = dependency.producer
                unlink(consumer: node, from: producer)
                if producer.descriptor.isReleasable, producer.graceDeadline == nil, !isInUse(producer) {
                    work.append((producer, .cascade))
                }
            }
            if !node.dependencies.isEmpty {
                node.dependencies.removeAll()
                probe?.recordDependenciesChanged(consumer: CogStateID(node.id), producers: CogProducerList([]))
            }
            node.releaseWork(in: self)
            probe?.record(.stateReleased(state: CogStateID(node.id), reason: why))
            let boundary = node.boundary
            let statusBoundary = node.statusBoundary
            node.boundary = nil
            node.statusBoundary = nil
            boundary?.notifyChange()
            statusBoundary?.notifyReleased()
        }
    }

    // MARK: Discard

    /// Schedules the release of one exact state, as its own turn at the next safe point. Only a
    /// while-observed manual source or an automatic state qualifies; a state another consumer,
    /// a watch or an export still holds is left alone.
    func discard(_ descriptor: AnyDescriptor, key: StateKey?, owner: RegistrationOwner?) {
        let label = Node.label(descriptor: descriptor, key: key)
        // A discard is a primitive like `turn`: through a retired controller it does nothing, so a
        // scope that has ended cannot reclaim state its replacement may own.
        if let owner, owner.isRetired { return }
        switch descriptor.shape {
        case .manual where !descriptor.isReleasable:
            fail(
                .invalidDiscard,
                "cannot discard '\(label)': it lives for the app; declare it "
                    + "lifetime: .whileObserved(resetToInitial: true) to release it", path: [label])
            return
        case .manual, .automatic:
            break
        case .async, .reaction:
            fail(
                .invalidDiscard, "cannot discard '\(label)': only manual sources and automatic states can be discarded",
                path: [label])
            return
        }
        deferTurn(name: "discard \(label)", origin: .discard) { [unowned self] _ in
            guard let node = existingNode(descriptor, key: key) else { return }
            guard node.consumers.isEmpty else {
                probe?.record(.turnDropped(name: "discard \(label)", reason: "'\(label)' is still in use"))
                return
            }
            release(node, reason: .discarded)
        }
    }
}
