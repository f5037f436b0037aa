/// The runtime's own view of its graph at one moment: what a recorder's keyframe, rebuilt from
/// probe events, must agree with. A package seam for tests of the recorder.
package struct CogLiveSnapshot {
    /// One live state or registration.
    package struct Entry {
        package let id: Int
        package let label: String
        package let shape: CogShape
        /// The value as the runtime holds it; nil before an automatic state's first run.
        package let value: Any?
        package let version: Int
        /// Producers, in the order the last run read them.
        package let dependencies: [Int]
        package let isPinned: Bool
        /// For an async state: kind, loading, succeeded.
        package let asyncStatus: (kind: String, isLoading: Bool, hasSucceeded: Bool)?
    }

    /// Every live state, by id.
    package let states: [Int: Entry]
    /// Every registered reaction, watch, scope and export, by id.
    package let registrations: [Int: Entry]
}

extension Cogs {
    /// Captures the graph as the runtime holds it now.
    package func liveSnapshot() -> CogLiveSnapshot {
        var states: [Int: CogLiveSnapshot.Entry] = [:]
        var registrations: [Int: CogLiveSnapshot.Entry] = [:]
        graph.forEachNode { node in
            var asyncStatus: (kind: String, isLoading: Bool, hasSucceeded: Bool)?
            if let fingerprint = node.statusFingerprint {
                asyncStatus = (fingerprint.kind.rawValue, fingerprint.isLoading, fingerprint.hasSucceeded)
            }
            let entry = CogLiveSnapshot.Entry(
                id: node.id, label: node.label, shape: node.descriptor.shape, value: node.anyValue,
                version: node.version, dependencies: node.dependencies.map(\.producer.id),
                isPinned: node.hasBoundary, asyncStatus: asyncStatus)
            if node.descriptor.shape == .reaction {
                registrations[node.id] = entry
            } else {
                states[node.id] = entry
            }
        }
        return CogLiveSnapshot(states: states, registrations: registrations)
    }
}
