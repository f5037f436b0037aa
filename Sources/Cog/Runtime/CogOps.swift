/// The small protocol that carries `turn` and `peek`, adopted by `Cogs` and by mechanism
/// controllers, so one op written in `extension CogOps` serves views, app code and mechanisms.
///
/// ```swift
/// extension CogOps {
///     /// Selects the visibility filter.
///     func selectTodoFilter(_ filter: TodoFilter) {
///         turn(_todoFilterCog, to: filter)
///     }
/// }
/// ```
public protocol CogOps {
    /// The runtime access behind the ops; apps use the methods below instead.
    var operations: CogOperations { get }
}

/// The runtime access behind `CogOps`: which runtime, and on whose behalf.
public struct CogOperations {
    @usableFromInline let graph: Graph

    init(graph: Graph) {
        self.graph = graph
    }
}

extension CogOps {
    /// Runs `body` as one atomic turn named `name`. Inside a turn, a nested turn joins the outer
    /// one; during a flush, the turn waits and runs after it in FIFO order. The body must not await.
    ///
    /// - Parameters:
    ///   - name: The turn's name in history; the calling op's name by default.
    ///   - body: Stages writes through its `Writer`.
    public func turn(_ name: String = #function, _ body: @escaping (Writer) -> Void) {
        operations.graph.performTurn(name: name, origin: .op, body: body)
    }

    /// Writes one source in its own turn: the compact form of a one-source op.
    ///
    /// - Parameters:
    ///   - source: The manual source to write.
    ///   - value: Its new value; an equal value changes nothing.
    ///   - name: The turn's name in history; the calling op's name by default.
    public func turn<Source: CogSourceReference>(_ source: Source, to value: Source.Value, name: String = #function) {
        operations.graph.performTurn(name: name, origin: .op) { c in c[source] = value }
    }

    /// Reads `ref` once, settled, without tracking: for operate, scope bodies, actions and tests.
    @inlinable
    public func peek<Reference: CogReference>(_ ref: Reference) -> Reference.Value {
        operations.graph.peek(ref.address)
    }
}
