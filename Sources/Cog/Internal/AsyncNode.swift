/// A request for new work, waiting for the turn that starts it.
struct AsyncRequest<Value> {
    let work: WorkBody<Value>
    var handles: [CogRefresh<Value>]
}

/// One generation of work in flight.
struct InFlightGeneration<Value> {
    let generation: Int
    let task: Task<Void, Never>
    var handles: [CogRefresh<Value>]
    let context: AsyncRunContext
    /// For a stream: whether an element has been accepted yet.
    var hasYielded = false
}

/// An async state: a consumer of its selector's dependencies, a producer of its value, and the
/// owner of its generations of work and of its status (pending, success, failure).
final class AsyncNode<Value>: ValueNode<Value> {
    /// Nonisolated for the reason `SourceNode`'s is.
    nonisolated deinit {}

    override var asyncPolicy: AsyncPolicyKind? { policy }

    let select: (Reader<Value>) -> WorkBody<Value>
    let policy: AsyncPolicyKind

    var kind: CogStatus<Value>.Kind = .pending
    var hasSucceeded = false
    var error: (any Error)?
    var errorVersion = 0
    var isLoading = true

    /// Status fields staged by the turn in progress.
    var stagedStatus: (kind: CogStatus<Value>.Kind, error: (any Error)?, isLoading: Bool, succeeded: Bool)?
    /// Whether the turn in progress replaced in-flight work with a new generation: the new
    /// generation's pending is a status change of its own, though the status read pending before.
    var replacedWorkThisTurn = false

    /// Work requested since the last start turn, in request order.
    var requests: [AsyncRequest<Value>] = []
    var isStartScheduled = false
    /// Refresh handles waiting for the next selector run's request.
    var handlesForNextRun: [CogRefresh<Value>] = []
    var inFlight: [InFlightGeneration<Value>] = []
    /// `.queue`: requests waiting for the current run to end.
    var queued: [AsyncRequest<Value>] = []
    /// `.exhaustLatest`: the one request to catch up with when the current run ends.
    var coalesced: AsyncRequest<Value>?
    var lastGeneration = 0

    init(
        id: Int, descriptor: AnyDescriptor, key: consuming StateKey?, defaultValue: Value, policy: AsyncPolicyKind,
        select: @escaping (Reader<Value>) -> WorkBody<Value>, equality: Equality<Value>
    ) {
        self.select = select
        self.policy = policy
        super.init(id: id, descriptor: descriptor, key: key, value: defaultValue, equality: equality, mark: .dirty)
    }

    /// Runs the selector (tracked) and requests its work; the value itself does not change here.
    override func run(in graph: Graph) -> Bool {
        let work = select(Reader(graph: graph, consumer: self))
        let handles = handlesForNextRun
        handlesForNextRun.removeAll()
        graph.request(AsyncRequest(work: work, handles: handles), for: self)
        return false
    }

    /// The status as readers see it now.
    var status: CogStatus<Value> {
        CogStatus(kind: kind, value: storage.pointee, hasSucceeded: hasSucceeded, error: error, isLoading: isLoading)
    }

    override var statusFingerprint: StatusFingerprint? {
        StatusFingerprint(
            kind: CogStatus<Void>.Kind(rawValue: kind.rawValue)!, hasSucceeded: hasSucceeded, isLoading: isLoading,
            valueVersion: version, errorVersion: errorVersion)
    }

    /// Stages a status change (and, for a success, a value) in the turn in progress.
    func stageStatus(
        _ kind: CogStatus<Value>.Kind, value: Value? = nil, error: (any Error)? = nil,
        isLoading: Bool, in graph: Graph
    ) {
        stagedStatus = (kind, error, isLoading, hasSucceeded || kind == .success)
        if let value { stage(value) }
        graph.noteWritten(self)
    }

    override func releaseWork(in graph: Graph) {
        graph.releaseGenerations(of: self)
    }

    override func commitStaged(in graph: Graph) -> CommitResult {
        let valueResult = super.commitStaged(in: graph)
        guard let next = stagedStatus else { return valueResult }
        stagedStatus = nil
        let errorChanged = next.error != nil || error != nil
        let statusChanged =
            next.kind != kind || next.isLoading != isLoading || next.succeeded != hasSucceeded
            || errorChanged || replacedWorkThisTurn
        replacedWorkThisTurn = false
        kind = next.kind
        isLoading = next.isLoading
        hasSucceeded = next.succeeded
        error = next.error
        if errorChanged { errorVersion += 1 }
        if statusChanged || valueResult == .value, let probe = graph.probe {
            probe.record(
                .asyncStatus(
                    state: CogStateID(id), kind: kind.rawValue, isLoading: isLoading, hasSucceeded: hasSucceeded,
                    error: error.map { String(describing: $0) }))
        }
        if valueResult == .value { return .value }
        guard statusChanged else { return .unchanged }
        statusVersion += 1
        return .statusOnly
    }
}
