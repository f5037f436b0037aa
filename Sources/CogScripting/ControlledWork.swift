public import Cog

/// One-shot async work that a test drives by hand: each run of the async selector's work starts
/// a generation the test awaits, then succeeds or fails, with no sleeps.
///
/// ```swift
/// let forecastWork = ControlledWork<Int?>()
/// let forecastCog = Cog<Int?>.Async(default: nil) { _ in forecastWork.run() }
///
/// _ = cogs.peek(forecastCog)
/// let first = await forecastWork.nextStart()
/// await first.succeed(72)          // returns once the success turn has been published
/// #expect(cogs.peek(forecastCog) == 72)
/// ```
public final class ControlledWork<Value: Sendable> {
    private var unclaimed: [ControlledGeneration<Value>] = []
    private var startWaiters: [CheckedContinuation<ControlledGeneration<Value>, Never>] = []
    /// How many generations have started.
    public private(set) var startCount = 0
    /// `makeWork()`'s generations: the next number to hand out, the started ones waiting for a
    /// result, and the announcement of each start.
    private var nextGenerationNumber = 0
    private var startedByNumber: [Int: ControlledGeneration<Value>] = [:]
    private let startAnnouncer: AsyncStream<Int>.Continuation

    /// The numbers of `makeWork()`'s generations, each as the runtime begins it, in order.
    public let starts: AsyncStream<Int>

    /// Creates work with no generations yet.
    public init() {
        (starts, startAnnouncer) = AsyncStream.makeStream(of: Int.self)
    }

    /// The work to return from an async selector (`.latest` policy).
    public func run() -> Work<Value> {
        .run { [self] in try await awaitResult() }
    }

    /// The work to return from an async selector with an ordered policy.
    public func run() -> RunWork<Value> {
        .run { [self] in try await awaitResult() }
    }

    /// A controlled async function, for work built from a capability rather than returned as
    /// `Work`: each call is one generation the test completes, labelled with `tag` so a test can
    /// tell concurrent calls apart (a ZIP code, a query).
    public func call(tag: String = "") async throws -> Value {
        try await awaitResult(tag: tag)
    }

    /// Waits for the next generation to start (in start order) and returns its controller.
    public func nextStart() async -> ControlledGeneration<Value> {
        if !unclaimed.isEmpty { return unclaimed.removeFirst() }
        return await withCheckedContinuation { startWaiters.append($0) }
    }

    /// The earliest started generation no one has claimed that `matches` accepts, without
    /// waiting; nil when none has started yet.
    public func claimStarted(where matches: (ControlledGeneration<Value>) -> Bool) -> ControlledGeneration<Value>? {
        guard let index = unclaimed.firstIndex(where: matches) else { return nil }
        return unclaimed.remove(at: index)
    }

    func takeGenerationNumber() -> Int {
        defer { nextGenerationNumber += 1 }
        return nextGenerationNumber
    }

    func takeStarted(_ number: Int) -> ControlledGeneration<Value>? {
        startedByNumber.removeValue(forKey: number)
    }

    /// Waits for the result of generation `number` of `makeWork()`, announcing its start. It
    /// ignores cancellation, as the public library's controlled work does: a superseded or
    /// released generation still waits for the test to complete it, so a test can hand the
    /// runtime a stale result and see it rejected.
    func awaitResult(announcing number: Int) async throws -> Value {
        try await awaitResult(index: number, tag: "", ignoresCancellation: true) { [self] generation in
            startedByNumber[number] = generation
            startAnnouncer.yield(number)
        }
    }

    private func awaitResult(tag: String = "") async throws -> Value {
        try await awaitResult(index: startCount, tag: tag) { [self] in didStart($0) }
    }

    /// Suspends one generation until the test completes it (or, unless `ignoresCancellation`,
    /// its task is cancelled), after `started` has made it known.
    private func awaitResult(
        index: Int, tag: String, ignoresCancellation: Bool = false,
        started: @escaping (ControlledGeneration<Value>) -> Void
    ) async throws -> Value {
        let generation = ControlledGeneration<Value>(index: index, tag: tag, context: AsyncRunContext.current)
        startCount += 1
        if ignoresCancellation {
            return try await withCheckedThrowingContinuation { continuation in
                generation.attach(continuation)
                started(generation)
            }
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                generation.attach(continuation)
                started(generation)
            }
        } onCancel: {
            generation.cancel()
        }
    }

    private func didStart(_ generation: ControlledGeneration<Value>) {
        if startWaiters.isEmpty {
            unclaimed.append(generation)
        } else {
            startWaiters.removeFirst().resume(returning: generation)
        }
    }
}

/// One started generation of `ControlledWork`.
nonisolated public final class ControlledGeneration<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var isCancelled = false
        var isResolved = false
    }

    /// The generation's place in start order, from 0.
    public let index: Int
    /// The label its call gave (empty for `run()`).
    public let tag: String
    private let context: AsyncRunContext?
    private let state = Locked(State())

    init(index: Int, tag: String, context: AsyncRunContext?) {
        self.index = index
        self.tag = tag
        self.context = context
    }

    /// Whether the runtime cancelled this generation (it was replaced or released).
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Delivers `value` and waits until the runtime has handled it (published or rejected).
    public func succeed(_ value: Value) async {
        resume(with: .success(value))
        await context?.waitForHandledEvents(1)
    }

    /// Delivers `error` and waits until the runtime has handled it.
    public func fail(_ error: any Error) async {
        resume(with: .failure(error))
        await context?.waitForHandledEvents(1)
    }

    func attach(_ continuation: CheckedContinuation<Value, any Error>) {
        let cancelledAlready = state.withLock { state in
            if state.isCancelled { return true }
            state.continuation = continuation
            return false
        }
        if cancelledAlready { continuation.resume(throwing: CancellationError()) }
    }

    func cancel() {
        let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            state.isCancelled = true
            guard !state.isResolved else { return nil }
            state.isResolved = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(throwing: CancellationError())
    }

    /// Resumes the work without waiting for the runtime to take the result.
    func resumeNow(with result: Result<Value, any Error>) {
        resume(with: result)
    }

    private func resume(with result: Result<Value, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            guard !state.isResolved else { return nil }
            state.isResolved = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result)
    }
}
