/// The controller a mechanism, or one opening of a scope, operates through: it runs the app's
/// ops (`CogOps`) and registers named work that ends with its owner.
///
/// When a scope ends, its controller retires: `turn` and `discard` do nothing (a queued turn is
/// dropped), registrations start nothing, `task` returns an already-cancelled task, and `peek`,
/// `status.peek` and `refresh` are runtime errors. Capture controllers weakly in anything
/// long-lived, and use `ifLive` for a read after a suspension.
public final class MechanismController: CogOps {
    /// The owner's name: `Weather`, or a scope's `HikeTimer.hikeTimer`, `Trail.screen[42]`.
    public let name: String
    public let operations: CogOperations
    let owner: RegistrationOwner

    init(owner: RegistrationOwner, graph: Graph) {
        self.name = owner.name
        self.owner = owner
        self.operations = CogOperations(graph: graph, owner: owner)
        owner.controller = self
    }

    var graph: Graph { operations.graph }

    /// Whether this controller's scope has ended.
    public var isRetired: Bool { owner.isRetired }

    /// Registers a reaction: it runs now to record its dependencies, then again, against settled
    /// state and in registration order, after any of them changed. Its writes become later turns.
    ///
    /// - Parameters:
    ///   - name: The registration's name, shown as `Owner.name`; where it is made (`fileID:line`)
    ///     when nil.
    ///   - body: Reads with `c[...]` and acts.
    public func run(
        name: String? = nil, fileID: String = #fileID, line: Int = #line, _ body: @escaping (Reader<Void>) -> Void
    ) {
        graph.registerReaction(name: registrationName(name, fileID: fileID, line: line), owner: owner, body: body)
    }

    /// `Owner.name`, or `Owner.fileID:line` for a registration made without a name.
    func registrationName(_ name: String?, fileID: String, line: Int) -> String {
        "\(self.name).\(declarationLabel(name: name, fileID: fileID, line: line))"
    }

    /// Calls `handler(old, new)` after each turn in which `ref`'s value changed (as its equality
    /// decides). The handler's writes become a later turn; they never join the turn it observed.
    ///
    /// - Parameters:
    ///   - ref: The state to watch; the watch holds a lease on it.
    ///   - initial: `.skip` (only changes) or `.run` (also once now, with the current value twice).
    ///   - name: The registration's name, shown as `Owner.name`; `fileID:line` when nil.
    ///   - handler: Receives the previous and the new value.
    public func watch<Reference: CogReference>(
        _ ref: Reference, initial: WatchInitial = .skip, name: String? = nil, fileID: String = #fileID,
        line: Int = #line, _ handler: @escaping (Reference.Value, Reference.Value) -> Void
    ) {
        registerWatch(
            name: registrationName(name, fileID: fileID, line: line), initial: initial, read: { c in c[ref] },
            handler: handler)
    }

    /// Calls `handler(old, new)` after each turn in which an async state's status changed
    /// (pending, success, failure, or a new value).
    public func watch<Reference: CogAsyncReference>(
        status ref: Reference, initial: WatchInitial = .skip, name: String? = nil, fileID: String = #fileID,
        line: Int = #line, _ handler: @escaping (CogStatus<Reference.Value>, CogStatus<Reference.Value>) -> Void
    ) {
        registerWatch(
            name: registrationName(name, fileID: fileID, line: line), initial: initial,
            read: { c in c.status[ref] }, handler: handler)
    }

    private func registerWatch<Value>(
        name: String, initial: WatchInitial, read: @escaping (Reader<Void>) -> Value,
        handler: @escaping (Value, Value) -> Void
    ) {
        var previous: Value?
        let graph = graph
        graph.registerReaction(name: name, kind: .watch, owner: owner) { c in
            let new = read(c)
            defer { previous = new }
            let old: Value
            if let previous {
                old = previous
            } else if initial == .run {
                old = new
            } else {
                return
            }
            // The running reaction is the watch itself; its first run (`initial: .run`) comes
            // before `registerReaction` returns, so the id is taken from the reader.
            if let probe = graph.probe {
                probe.record(.watchRun(registration: CogStateID(c.consumer.id), old: old, new: new))
            }
            handler(old, new)
        }
    }

    /// Starts `operation` as a task owned by this controller: cancelled when its scope (or the
    /// runtime) ends. The closure is not on the MainActor's synchronous path: `await` ops from it.
    ///
    /// - Parameters:
    ///   - name: The task's name, shown as `Owner.name`; `fileID:line` when nil.
    ///   - operation: The work; capture the controller weakly.
    /// - Returns: The task; already cancelled if this controller is retired.
    @discardableResult
    public func task(
        name: String? = nil, fileID: String = #fileID, line: Int = #line,
        _ operation: @escaping @Sendable () async throws -> Void
    ) -> Task<Void, any Error> {
        guard !owner.isRetired else {
            let task = Task<Void, any Error> {}
            task.cancel()
            return task
        }
        let id = graph.claimNodeID()
        let owner = owner
        let taskName = registrationName(name, fileID: fileID, line: line)
        graph.probe?.record(.taskStarted(registration: CogStateID(id), name: taskName))
        let task = Task(name: taskName) { [lifeline = graph.lifeline] in
            defer {
                if owner.tasks.removeValue(forKey: id) != nil {
                    lifeline.current?.probe?.record(.taskFinished(registration: CogStateID(id)))
                }
            }
            try await operation()
        }
        owner.tasks[id] = task
        return task
    }

    /// Runs `body` with this controller only if its scope is still live; nil after retirement.
    /// It checks once, at the call, and reserves nothing: check again after every `await`.
    public func ifLive<Result>(_ body: (MechanismController) -> Result) -> Result? {
        owner.isRetired ? nil : body(self)
    }
}
