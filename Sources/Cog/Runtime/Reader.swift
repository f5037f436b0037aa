/// What a selector or reaction reads through, conventionally named `c`.
///
/// `c[ref]` is a tracked read: the running state depends on exactly the states it read in its
/// last run. `c.peek(ref)` reads without a dependency; `c.curr` is the state's own prior value.
public struct Reader<Value> {
    @usableFromInline let graph: Graph
    @usableFromInline unowned(unsafe) let consumer: Node

    init(graph: Graph, consumer: Node) {
        self.graph = graph
        self.consumer = consumer
    }

    /// Reads `ref` and records it as a dependency of the running state.
    @inlinable
    public subscript<Reference: CogReference>(ref: Reference) -> Reference.Value {
        graph.readTracked(ref.address, by: consumer)
    }

    /// Reads `ref`'s settled value without recording a dependency: the untracked escape hatch for a
    /// value the selector uses but must not follow. Keep it rare.
    @inlinable
    public func peek<Reference: CogReference>(_ ref: Reference) -> Reference.Value {
        graph.peek(ref.address)
    }

    /// The running state's value before this run; nil on its first run.
    public var curr: Value? {
        guard let node = consumer as? ValueNode<Value>, node.hasValue else { return nil }
        return node.storage.pointee
    }
}
