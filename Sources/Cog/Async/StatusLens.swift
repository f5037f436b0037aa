extension Cogs {
    /// The status lens at the UI edge: `cogs.status[ref]` returns a `CogStatus` whose fields are
    /// each tracked by Observation only when read; `cogs.status.peek(ref)` tracks nothing.
    public var status: StatusLens { StatusLens(graph: graph) }

    /// The UI status lens of a runtime.
    public struct StatusLens {
        let graph: Graph

        /// The status of an async state, field-tracked at the Observation boundary.
        public subscript<Reference: CogAsyncReference>(ref: Reference) -> CogStatus<Reference.Value> {
            graph.readStatusAtBoundary(ref.address)
        }

        /// The status of an async state, read once without tracking.
        public func peek<Reference: CogAsyncReference>(_ ref: Reference) -> CogStatus<Reference.Value> {
            graph.peekStatus(ref.address)
        }
    }
}

extension Reader {
    /// The status lens in a selector or reaction: `c.status[ref]` tracks the whole status.
    public var status: StatusLens { StatusLens(graph: graph, consumer: consumer) }

    /// The status lens of a running selector or reaction.
    public struct StatusLens {
        let graph: Graph
        unowned(unsafe) let consumer: Node

        /// The status of an async state; any change to it re-runs the reader.
        public subscript<Reference: CogAsyncReference>(ref: Reference) -> CogStatus<Reference.Value> {
            graph.readStatusTracked(ref.address, by: consumer)
        }

        /// The status of an async state, read without tracking.
        public func peek<Reference: CogAsyncReference>(_ ref: Reference) -> CogStatus<Reference.Value> {
            graph.peekStatus(ref.address)
        }
    }
}

/// The status lens of ops and controllers: one-time reads only.
public struct CogOpsStatusLens {
    let operations: CogOperations

    /// The status of an async state, read once without tracking.
    public func peek<Reference: CogAsyncReference>(_ ref: Reference) -> CogStatus<Reference.Value> {
        operations.checkLive("status.peek")
        return operations.graph.peekStatus(ref.address)
    }
}

extension CogOpsStatusLens {
    /// Calls `handler(old, new)` after each turn in which an async state's status changed: the
    /// same as `watch(status:…)` on the controller, spelled on the lens (`m.status.watch(ref)`).
    /// Only a mechanism's or scope's controller can register one.
    public func watch<Reference: CogAsyncReference>(
        _ ref: Reference, initial: WatchInitial = .skip, name: String? = nil, fileID: String = #fileID,
        line: Int = #line, _ handler: @escaping (CogStatus<Reference.Value>, CogStatus<Reference.Value>) -> Void
    ) {
        guard let owner = operations.owner else {
            preconditionFailure(
                "Cog: status.watch registers a watch, which only a mechanism's or scope's controller can do")
        }
        // A lens kept past its controller's retirement registers nothing, as the controller would.
        guard let controller = owner.controller, !owner.isRetired else { return }
        controller.watch(status: ref, initial: initial, name: name, fileID: fileID, line: line, handler)
    }
}

extension CogOps {
    /// One-time status reads for ops and mechanisms: `m.status.peek(ref)`.
    public var status: CogOpsStatusLens { CogOpsStatusLens(operations: operations) }

    /// Demands fresh work for an async state and returns a handle on exactly the generation it
    /// starts. Refreshing a never-read state performs its initial load.
    ///
    /// - Parameter ref: The async state to refresh.
    /// - Returns: A handle whose `outcome` is success, failure, superseded or released.
    @discardableResult
    public func refresh<Reference: CogAsyncReference>(_ ref: Reference) -> CogRefresh<Reference.Value> {
        operations.checkLive("refresh")
        return operations.graph.refresh(ref.address)
    }
}
