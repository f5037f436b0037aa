/// The dependency cycle a read would close, as a test can see it without the runtime trapping:
/// the closed path of labels (the repeated state last) and the message the read would fail with.
nonisolated public struct CogCycleDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// The states on the cycle, outermost first, ending with the state that closes it again.
    public let path: [String]
    /// The message the runtime gives when the read happens.
    public let message: String

    public var description: String { message }
}

extension Reader {
    /// The cycle that reading `ref` now, from the running selector, would close; nil when the
    /// read would close none. It reads nothing, records no dependency and creates no state.
    public func cycleDiagnostic<Reference: CogReference>(ifReading ref: Reference) -> CogCycleDiagnostic? {
        guard let node = graph.existingNode(ref.address.descriptor, key: ref.address.key),
            node.isRunning || node.isSettling
        else { return nil }
        let path = graph.cyclePath(closedBy: node)
        return CogCycleDiagnostic(path: path, message: Graph.cycleMessage(path))
    }
}

extension Graph {
    /// The labels of the active path from `node` to the running state, then `node` again.
    func cyclePath(closedBy node: Node) -> [String] {
        let active = activePath
        let start = active.firstIndex { $0 === node } ?? 0
        return (active[start...] + [node]).map(\.label)
    }

    /// The message of a cycle along `path`, in the public library's words, which its tests (and
    /// so an app's own) compare whole: `Cog dependency cycle: advice -> advice.`
    static func cycleMessage(_ path: [String]) -> String {
        "Cog dependency cycle: \(path.joined(separator: " -> "))."
    }
}
