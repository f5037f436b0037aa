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
@MainActor
public protocol CogOps {
    /// The runtime access behind the ops; apps use the methods below instead.
    var operations: CogOperations { get }
}

/// The runtime access behind `CogOps`: which runtime, and on whose behalf.
public struct CogOperations {
    @usableFromInline let graph: Graph
    /// The scope a controller acts for; nil for the runtime itself.
    @usableFromInline let owner: RegistrationOwner?

    /// Fails if a retired controller is asked to read: its authority ended with its scope.
    @inlinable
    func checkLive(_ operation: StaticString) {
        if let owner, owner.isRetired { graph.failRetired(owner, operation) }
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
        operations.graph.performTurn(name: name, origin: .op, owner: operations.owner, body: body)
    }

    /// Writes one source in its own turn: the compact form of a one-source op.
    ///
    /// - Parameters:
    ///   - source: The manual source to write.
    ///   - value: Its new value; an equal value changes nothing.
    ///   - name: The turn's name in history; the calling op's name by default.
    public func turn<Source: CogSourceReference>(_ source: Source, to value: Source.Value, name: String = #function) {
        operations.graph.performTurn(name: name, origin: .op, owner: operations.owner) { c in c[source] = value }
    }

    /// Reads `ref` once, settled, without tracking: for operate, scope bodies, actions and tests.
    @inlinable
    public func peek<Reference: CogReference>(_ ref: Reference) -> Reference.Value {
        operations.checkLive("peek")
        return operations.graph.peek(ref.address)
    }

    /// Releases one exact manual source declared `.whileObserved(resetToInitial: true)`, as its
    /// own turn at the next safe point; a later read starts over at its initial value. A state a
    /// watch, an export or another cog still uses is left alone. Pass the source, not its
    /// read-only projection; discarding `.app` state is a runtime error.
    public func discard<Source: CogSourceReference>(_ source: Source) {
        operations.graph.discard(source.address.descriptor, key: source.address.key, owner: operations.owner)
    }

    /// Releases one automatic state, which recomputes on its next read; left alone while
    /// something uses it.
    public func discard<Value>(_ automatic: Cog<Value>) {
        operations.graph.discard(automatic.address.descriptor, key: nil, owner: operations.owner)
    }

    /// Releases one key's automatic state; a read-only projection of a manual box is refused.
    public func discard<Value>(_ automatic: CogBoxReference<Value>) {
        operations.graph.discard(automatic.address.descriptor, key: automatic.address.key, owner: operations.owner)
    }
}
