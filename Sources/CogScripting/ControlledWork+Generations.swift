public import Cog

/// The public Cog library's spelling of controlled one-shot work, indexed by generation: each
/// `makeWork()` (one per selector run) takes the next number, `starts` announces a number when
/// the runtime begins that work, and `succeed(_:with:)` / `fail(_:with:)` complete it.
///
/// ```swift
/// let work = ControlledWork<Int>()
/// let totalCog = Cog<Int>.Async(default: 0) { _ in work.makeWork() }
/// var starts = work.starts.makeAsyncIterator()
/// cogs.refresh(totalCog)
/// #expect(await starts.next() == 0)
/// work.succeed(0, with: 72)
/// ```
extension ControlledWork {
    /// One-shot work that announces its generation on `starts` when it begins, then waits for
    /// `succeed(_:with:)` or `fail(_:with:)` of that generation; cancelling its task does not
    /// end it, so a superseded generation's result can still be handed to the runtime.
    public func makeWork() -> Work<Value> {
        let generation = takeGenerationNumber()
        return .run { [self] in try await awaitResult(announcing: generation) }
    }

    /// The same work for an ordered policy (`.queue`, `.exhaustLatest`, `.merged`).
    public func makeWork() -> RunWork<Value> {
        let generation = takeGenerationNumber()
        return .run { [self] in try await awaitResult(announcing: generation) }
    }

    /// Completes generation `generation` with `value`; nothing happens for a generation that has
    /// not started or already ended (await `starts` first).
    public func succeed(_ generation: Int, with value: Value) {
        takeStarted(generation)?.resumeNow(with: .success(value))
    }

    /// Completes generation `generation` with `error`, under the same rule as `succeed`.
    public func fail(_ generation: Int, with error: any Error) {
        takeStarted(generation)?.resumeNow(with: .failure(error))
    }
}

/// The public Cog library's spelling of controlled streams, indexed by generation: `makeWork()`
/// creates generation N's stream (elements yielded before the runtime consumes it are kept),
/// `starts` announces N when the runtime begins consuming it, and the test drives it with
/// `yield(_:to:)`, `finish(_:)` and `fail(_:with:)`.
extension ControlledStream {
    /// Stream work for a `.latest` async selector; its generation is announced on `starts`
    /// when the runtime starts reading it.
    public func makeWork() -> Work<Element> {
        let (generation, elements) = makeGenerationStream()
        return .stream { [self] in
            announceStart(of: generation)
            return elements
        }
    }

    /// How many generations `makeWork()` has made: how often the selector ran, which `starts`
    /// (what went live) cannot bound.
    public var generationCount: Int { generationStreams.count }

    /// Offers `element` to generation `generation`; elements after it ended are dropped.
    public func yield(_ element: Element, to generation: Int) {
        continuation(of: generation).yield(element)
    }

    /// Ends generation `generation` normally: nothing is published.
    public func finish(_ generation: Int) {
        continuation(of: generation).finish()
    }

    /// Ends generation `generation` with `error`, which publishes a failure.
    public func fail(_ generation: Int, with error: any Error) {
        continuation(of: generation).finish(throwing: error)
    }

    private func continuation(of generation: Int) -> AsyncThrowingStream<Element, any Error>.Continuation {
        guard generationStreams.indices.contains(generation) else {
            preconditionFailure(
                "ControlledStream has made \(generationStreams.count) generation(s) with makeWork(); "
                    + "there is no generation \(generation)")
        }
        return generationStreams[generation]
    }
}
