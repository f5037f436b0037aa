package import CogTraceFormat
package import CogTraceStore

/// A recording's graph after one turn after another, for a pass that visits the turns in
/// order: one walk applies each turn once, where a snapshot per turn would walk from the
/// keyframe before it every time (a test's trace keeps a keyframe every 1,000 turns).
package struct ForwardSnapshots {
    private let recording: TraceFile
    private var walk: SnapshotWalk?
    private var last: (sequence: TurnNumber, graph: GraphSnapshot)?

    /// Snapshots of `recording`.
    package init(_ recording: TraceFile) {
        self.recording = recording
    }

    /// The graph just after turn `sequence` and the work after it; nil for a malformed turn.
    package mutating func after(_ sequence: TurnNumber) -> GraphSnapshot? {
        if let last, last.sequence == sequence { return last.graph }
        if let last, last.sequence > sequence { return try? recording.snapshot(after: sequence) }
        if walk == nil, let first = recording.turnSequences.first { walk = try? recording.walk(from: first) }
        guard var current = walk, let graph = try? current.advance(through: sequence) else { return nil }
        walk = current
        last = (sequence, graph)
        return graph
    }
}
