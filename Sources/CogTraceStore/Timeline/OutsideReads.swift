package import CogTraceFormat

/// The reads something outside the app made between turns (a test's `peek`, a screen's read), as
/// a recording shows them: the states created, recomputed or peeked there, less those another of
/// them read on the way (reading the outer state computes them again).
package enum OutsideReads {
    /// The states read directly, in the order the recording first shows each.
    /// - Parameter dependencies: A state's producers after the step, for reads the events do not show.
    package static func roots(in events: [TraceEvent], dependencies: (NodeID) -> [NodeID]) -> [NodeID] {
        var order: [NodeID] = []
        var seen: Set<NodeID> = []
        var readByAnother: Set<NodeID> = []
        for event in events {
            switch event {
            case .stateCreated(let id, _), .recompute(let id, _, _, _, _), .leaseRenewed(let id, "peek"):
                // A peek of a state that was already fresh shows only as its grace renewed.
                if seen.insert(id).inserted { order.append(id) }
            case .edgeAdded(let consumer, let producer) where consumer != producer:
                readByAnother.insert(producer)
            case .dependencies(let consumer, let producers):
                readByAnother.formUnion(producers.filter { $0 != consumer })
            default:
                break
            }
        }
        for id in order { readByAnother.formUnion(dependencies(id).filter { $0 != id && seen.contains($0) }) }
        return order.filter { !readByAnother.contains($0) }
    }

    /// Whether `consumer` reads `producer`, directly or through other states.
    package static func reaches(_ consumer: NodeID, _ producer: NodeID, dependencies: (NodeID) -> [NodeID]) -> Bool {
        var seen: Set<NodeID> = [consumer]
        var queue = [consumer]
        while let next = queue.popLast() {
            for dependency in dependencies(next) {
                if dependency == producer { return true }
                if seen.insert(dependency).inserted { queue.append(dependency) }
            }
        }
        return false
    }
}
