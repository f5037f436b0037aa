/// The policy of an async declaration whose work may be a stream: only `.latest`.
nonisolated public struct LatestPolicy: Sendable, Equatable {
    /// Cancel old work; only the newest generation may publish (the default; "switchMap").
    public static let latest = LatestPolicy()
}

/// The policies for one-shot work that keep more than the newest request.
nonisolated public struct OrderedPolicy: Sendable, Equatable {
    let kind: AsyncPolicyKind

    /// Run requests in order; a failure publishes, resolves its handle, then the next starts
    /// ("concatMap").
    public static let queue = OrderedPolicy(kind: .queue)
    /// Finish the current run, coalesce the requests meanwhile, then catch up once.
    public static let exhaustLatest = OrderedPolicy(kind: .exhaustLatest)
    /// Let runs overlap; each result is its own turn ("merge").
    public static let merged = OrderedPolicy(kind: .merged)
}

/// Every policy, as the runtime and the trace name them.
nonisolated public enum AsyncPolicyKind: String, Sendable, Codable {
    case latest, queue, exhaustLatest, merged
}
