/// How an export buffers values its subscriber has not taken yet. No policy ever blocks a turn.
public enum CogBuffering: Sendable, Equatable {
    /// Keep the newest `n`; a slow reader skips older turns.
    case newest(Int)
    /// Keep the oldest `n` waiting values; newer ones are dropped while full.
    case oldest(Int)
    /// Keep every value.
    case unbounded
}

extension Cogs {
    /// The values of `ref` as an `AsyncSequence`: the current value first, then its value after
    /// each turn that changed it. The subscription holds a lease on `ref` until the sequence's
    /// iteration ends or is cancelled. Values cross to whatever task iterates, so they must be
    /// `Sendable`.
    ///
    /// - Parameters:
    ///   - ref: The state to export.
    ///   - buffering: What to keep for a reader that falls behind; `.newest(1)` by default.
    /// - Returns: A stream of values that never blocks the graph.
    public func values<Reference: CogReference>(
        of ref: Reference, buffering: CogBuffering = .newest(1)
    ) -> AsyncStream<Reference.Value> where Reference.Value: Sendable {
        let policy: AsyncStream<Reference.Value>.Continuation.BufferingPolicy
        switch buffering {
        case .newest(let count): policy = .bufferingNewest(count)
        case .oldest(let count): policy = .bufferingOldest(count)
        case .unbounded: policy = .unbounded
        }
        let (values, continuation) = AsyncStream.makeStream(of: Reference.Value.self, bufferingPolicy: policy)
        let graph = graph
        let label = Node.label(descriptor: ref.address.descriptor, key: ref.address.key)
        weak var subscriber: ReactionNode?
        subscriber = graph.registerReaction(name: "export \(label)", kind: .export, owner: nil) { c in
            let value = c[ref]
            if let probe = graph.probe, let subscriber, let producer = subscriber.dependencies.first?.producer {
                probe.record(
                    .offer(state: CogStateID(producer.id), subscriber: CogStateID(subscriber.id), value: value))
            }
            continuation.yield(value)
        }
        continuation.onTermination = { [weak subscriber] _ in
            Task { @MainActor in
                if let subscriber { graph.unregister(subscriber) }
            }
        }
        return values
    }
}
