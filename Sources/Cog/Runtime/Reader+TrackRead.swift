public import Observation

extension Reader {
    /// Reads external `@Observable` state through `read` and makes the running state depend on
    /// every property that read touches: the form for a value that combines several properties,
    /// which one key path cannot name.
    ///
    /// ```swift
    /// let displayNameCog = Cog<String> { c in
    ///     c.track(profile) { profile in "\(profile.givenName) \(profile.familyName)" }
    /// }
    /// ```
    ///
    /// Each selector and call site owns one link. When a property the read touched changes, a turn
    /// named `c.track(…)` with origin `externalChange` writes the read's new value into a hidden
    /// source the selector depends on, and the selector runs again. Every run hands over its own
    /// closure, which is read and observed again at once, so a run whose captures changed is
    /// followed on the properties it reads now, not those of an earlier run.
    ///
    /// - Parameters:
    ///   - root: The model handed to `read`; the link keeps it alive while the runtime lives.
    ///   - fileID: Where the call is, which with the running state names the link.
    ///   - line: The call's line.
    ///   - column: The call's column.
    ///   - read: A synchronous read of external state on the MainActor.
    /// - Returns: What `read` returns now.
    public func track<Root: Observable & AnyObject, Tracked>(
        _ root: Root, fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column,
        read: @escaping @MainActor (Root) -> Tracked
    ) -> Tracked {
        let site = ExternalReadIdentity(consumer: consumer.id, fileID: "\(fileID)", line: line, column: column)
        let tracked = graph.trackedRead(at: site, name: "\(Root.self) at \(fileID):\(line)") { read(root) }
        _ = self[tracked.source]
        return tracked.value
    }
}

/// One selector's one `c.track(model) { … }` call site.
struct ExternalReadIdentity: Hashable {
    let consumer: Int
    let fileID: String
    let line: UInt
    let column: UInt
}

/// One closure read linked into one runtime: the hidden source whose change makes its selector
/// run again, and the Observation registration of the properties the newest read touched.
final class ExternalReadBridge<Tracked>: ExternalChangeReceiver {
    let source: Cog<Tracked>.Manual
    private var read: () -> Tracked
    private let turnName: String
    private unowned(unsafe) let graph: Graph
    private let lifeline: GraphLifeline
    /// Which registration is current: one a later run replaced may still call back once, and
    /// is ignored then.
    private var armedGeneration = 0

    init(read: @escaping () -> Tracked, name: String, graph: Graph) {
        self.read = read
        self.graph = graph
        lifeline = graph.lifeline
        turnName = "c.track(\(name))"
        let initial = read()
        source = Cog<Tracked>.Manual(name: turnName, equals: nil) { initial }
    }

    /// Takes a selector run's closure and observes what it reads now; returns its value.
    func rearm(with read: @escaping () -> Tracked) -> Tracked {
        self.read = read
        return arm()
    }

    /// Reads under Observation, so the next change of any property read calls back once.
    @discardableResult
    func arm() -> Tracked {
        armedGeneration += 1
        let generation = armedGeneration
        let handle = WeakChangeReceiver(receiver: self)
        return withObservationTracking {
            read()
        } onChange: {
            Task { @MainActor in
                guard let bridge = handle.receiver as? ExternalReadBridge<Tracked>,
                    bridge.armedGeneration == generation
                else { return }
                bridge.changed()
            }
        }
    }

    func changed() {
        guard lifeline.isAlive else { return }
        let value = arm()
        let source = source
        graph.performTurn(name: turnName, origin: .externalChange) { writer in writer[source] = value }
        graph.reached(.externalObservationRearm)
    }
}

extension Graph {
    /// The link of the closure read at `site`, made on first use; its hidden source and what the
    /// read returns now.
    func trackedRead<Tracked>(
        at site: ExternalReadIdentity, name: @autoclosure () -> String, read: @escaping () -> Tracked
    ) -> (source: Cog<Tracked>.Manual, value: Tracked) {
        if let existing = externalReadBridges[site] {
            guard let bridge = existing as? ExternalReadBridge<Tracked> else {
                preconditionFailure("Cog: one c.track call site returned two different types")
            }
            return (bridge.source, bridge.rearm(with: read))
        }
        let bridge = ExternalReadBridge(read: read, name: name(), graph: self)
        externalReadBridges[site] = bridge
        return (bridge.source, bridge.arm())
    }
}
