/// The three ways to read a state: tracked by a running consumer, untracked (`peek`), and at the
/// Observation boundary (a UI read).
///
/// The generic entry points are inlinable and tiny, so an app's reads are specialized for their
/// value type; everything they call is non-generic.
extension Graph {
    /// A read inside a selector or reaction: settles the state and links it to `consumer`.
    @inlinable
    func readTracked<Value>(_ address: CogAddress<Value>, by consumer: Node) -> Value {
        let node = node(address.descriptor, key: address.key)
        settleForTrackedRead(node, by: consumer)
        return value(of: node, as: Value.self)
    }

    /// A one-time read that creates no edge but still settles a dirty state first.
    @inlinable
    func peek<Value>(_ address: CogAddress<Value>) -> Value {
        let node = node(address.descriptor, key: address.key)
        settleForPeek(node)
        return value(of: node, as: Value.self)
    }

    /// A UI read: settles the state, pins it behind an Observation boundary, and registers the
    /// access so `withObservationTracking` sees exactly this state.
    @inlinable
    func readAtBoundary<Value>(_ address: CogAddress<Value>) -> Value {
        let node = node(address.descriptor, key: address.key)
        settleForBoundaryRead(node)
        return value(of: node, as: Value.self)
    }

    /// The value of a settled state.
    @inlinable
    func value<Value>(of node: Node, as type: Value.Type) -> Value {
        // The node of a `CogAddress<Value>` is a `ValueNode<Value>`: its descriptor made it for that type.
        let valueNode = unsafeDowncast(node, to: ValueNode<Value>.self)
        guard valueNode.hasValue else { missingValue(node) }
        return valueNode.storage.pointee
    }

    @usableFromInline
    func settleForTrackedRead(_ node: Node, by consumer: Node) {
        if node.isRunning || node.isSettling {
            reportCycle(at: node)
        } else {
            settle(node)
            track(node, by: consumer)
        }
    }

    /// Settles `node` for a one-time read; an unused releasable state gets a fresh grace window.
    @usableFromInline
    func settleForPeek(_ node: Node) {
        settleForOneTimeRead(node)
        if node.descriptor.isReleasable { renewGrace(node, by: "peek") }
    }

    @usableFromInline
    func settleForBoundaryRead(_ node: Node) {
        settleForOneTimeRead(node)
        let boundary = node.boundary ?? attachBoundary(to: node)
        boundary.access()
    }

    /// Settles `node` for a read outside any selector; at the top level, also runs turns the
    /// settle queued (an async state's first pending turn).
    func settleForOneTimeRead(_ node: Node) {
        if node.isRunning || node.isSettling {
            reportCycle(at: node)
        } else {
            settle(node)
            drainQueuedTurnsIfIdle()
        }
    }

    private func attachBoundary(to node: Node) -> Boundary {
        let boundary = Boundary(notifiedVersion: node.version)
        node.boundary = boundary
        probe?.record(.boundaryAttached(state: CogStateID(node.id)))
        endGraceWhileHeld(node)
        return boundary
    }

    /// A state still without a value after settling is one whose first run is caught in a cycle
    /// that a diagnostic handler chose to survive: there is nothing to return.
    @usableFromInline
    func missingValue(_ node: Node) -> Never {
        fatalError("Cog: '\(node.label)' has no value yet: its first computation is part of a cycle")
    }
}
