public import Cog

/// Stream work that a test drives by hand: each run starts a generation whose elements, end and
/// error the test delivers, each call returning once the runtime has handled it.
///
/// ```swift
/// let prices = ControlledStream<Int>()
/// let priceCog = Cog<Int>.Async(default: 0) { _ in prices.stream() }
///
/// _ = cogs.peek(priceCog)
/// let feed = await prices.nextStart()
/// await feed.yield(42)
/// #expect(cogs.peek(priceCog) == 42)
/// ```
public final class ControlledStream<Element: Sendable> {
    private var unclaimed: [ControlledStreamGeneration<Element>] = []
    private var startWaiters: [CheckedContinuation<ControlledStreamGeneration<Element>, Never>] = []
    /// How many generations have started.
    public private(set) var startCount = 0
    /// One stream per `makeWork()` generation, in number order.
    private(set) var generationStreams: [AsyncThrowingStream<Element, any Error>.Continuation] = []
    private let startAnnouncer: AsyncStream<Int>.Continuation

    /// The numbers of `makeWork()`'s generations, each as the runtime starts reading it.
    public let starts: AsyncStream<Int>

    /// Creates a stream with no generations yet.
    public init() {
        (starts, startAnnouncer) = AsyncStream.makeStream(of: Int.self)
    }

    /// A new generation's stream and its number.
    func makeGenerationStream() -> (Int, AsyncThrowingStream<Element, any Error>) {
        let (elements, continuation) = AsyncThrowingStream.makeStream(of: Element.self)
        generationStreams.append(continuation)
        return (generationStreams.count - 1, elements)
    }

    /// Says generation `generation` of `makeWork()` went live.
    func announceStart(of generation: Int) {
        startCount += 1
        startAnnouncer.yield(generation)
    }

    /// The work to return from an async selector.
    public func stream() -> Work<Element> {
        .stream { [self] in makeElements() }
    }

    /// Waits for the next generation to start (in start order) and returns its controller.
    public func nextStart() async -> ControlledStreamGeneration<Element> {
        if !unclaimed.isEmpty { return unclaimed.removeFirst() }
        return await withCheckedContinuation { startWaiters.append($0) }
    }

    private func makeElements() -> AsyncThrowingStream<Element, any Error> {
        let (elements, continuation) = AsyncThrowingStream.makeStream(of: Element.self)
        let generation = ControlledStreamGeneration(
            index: startCount, context: AsyncRunContext.current, continuation: continuation)
        startCount += 1
        if startWaiters.isEmpty {
            unclaimed.append(generation)
        } else {
            startWaiters.removeFirst().resume(returning: generation)
        }
        return elements
    }
}

/// One started generation of `ControlledStream`.
nonisolated public final class ControlledStreamGeneration<Element: Sendable>: Sendable {
    /// The generation's place in start order, from 0.
    public let index: Int
    private let context: AsyncRunContext?
    private let continuation: AsyncThrowingStream<Element, any Error>.Continuation
    /// How many events were delivered, and whether the runtime stopped listening.
    private let delivery = Locked((delivered: 0, terminated: false))

    init(index: Int, context: AsyncRunContext?, continuation: AsyncThrowingStream<Element, any Error>.Continuation) {
        self.index = index
        self.context = context
        self.continuation = continuation
        continuation.onTermination = { [weak self] _ in
            self?.delivery.withLock { $0.terminated = true }
        }
    }

    /// Whether the runtime stopped this generation (replaced or released) or it ended.
    public var isTerminated: Bool { delivery.withLock { $0.terminated } }

    /// Delivers one element and waits until the runtime has handled it.
    public func yield(_ element: Element) async {
        await deliver { continuation.yield(element) }
    }

    /// Ends the stream naturally and waits until the runtime has handled the end.
    public func finish() async {
        await deliver { continuation.finish() }
    }

    /// Ends the stream with `error` and waits until the runtime has handled it.
    public func fail(_ error: any Error) async {
        await deliver { continuation.finish(throwing: error) }
    }

    private func deliver(_ send: () -> Void) async {
        let target = delivery.withLock { state -> Int? in
            guard !state.terminated else { return nil }
            state.delivered += 1
            return state.delivered
        }
        guard let target else { return }
        send()
        await context?.waitForHandledEvents(target)
    }
}
