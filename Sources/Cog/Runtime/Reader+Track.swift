public import Observation

extension Reader {
    /// Reads `keyPath` of an external `@Observable` model and makes the running state depend on
    /// it: when the property changes, a turn named `c.track(…)` with origin `externalChange`
    /// writes its new value into a hidden source, and everything that tracked it recomputes as
    /// after any write. The hidden source is an ordinary manual state, so a trace records the
    /// input like any other. The runtime keeps the model alive while it lives.
    ///
    /// ```swift
    /// let greetingCog = Cog<String> { c in "Hello, \(c.track(profile, \.givenName))" }
    /// ```
    ///
    /// - Parameters:
    ///   - root: The model; the runtime keeps it alive while it lives.
    ///   - keyPath: The one property read and depended on.
    ///   - name: How traces and diagnostics name the input; by default the model's type and the
    ///     property (`ReaderProfile.givenName`), or where it was first tracked when the platform
    ///     cannot name the property.
    public func track<Root: Observable & AnyObject, Tracked>(
        _ root: Root, _ keyPath: KeyPath<Root, Tracked>, name: String? = nil, fileID: String = #fileID,
        line: Int = #line
    ) -> Tracked {
        self[
            graph.trackedSource(root, keyPath, name: name ?? inputName(Root.self, keyPath, fileID: fileID, line: line))]
    }

    /// `Profile.givenName` when the key path can be named, else `Profile at File.swift:12`: a
    /// name that is the same in every run, so recordings reproduce.
    private func inputName<Root, Tracked>(
        _ root: Root.Type, _ keyPath: KeyPath<Root, Tracked>, fileID: String, line: Int
    ) -> String {
        let typeName = String(describing: root)
        let text = String(describing: keyPath)
        if let dot = text.firstIndex(of: "."), !text.contains("<") { return typeName + text[dot...] }
        return "\(typeName) at \(fileID):\(line)"
    }
}

/// One external property linked into one runtime: the hidden source its value lives in, and the
/// Observation registration that turns each change into a turn.
final class ExternalPropertyBridge<Root: Observable & AnyObject, Tracked>: ExternalChangeReceiver {
    let root: Root
    let keyPath: KeyPath<Root, Tracked>
    let source: Cog<Tracked>.Manual
    private let turnName: String
    private unowned(unsafe) let graph: Graph
    private let lifeline: GraphLifeline

    init(root: Root, keyPath: KeyPath<Root, Tracked>, name: String, graph: Graph) {
        self.root = root
        self.keyPath = keyPath
        self.graph = graph
        lifeline = graph.lifeline
        let name = "c.track(\(name))"
        turnName = name
        let initial = root[keyPath: keyPath]
        source = Cog<Tracked>.Manual(name: name, equals: nil) { initial }
    }

    /// Registers for the property's next change. Observation calls back once, before the new
    /// value is set, so the callback only schedules the work: on the MainActor, after the setter,
    /// it registers again, then writes the value it reads.
    func arm() {
        // The callback holds the bridge through a non-generic protocol: a Sendable closure cannot
        // capture the bridge's generic types.
        let handle = WeakChangeReceiver(receiver: self)
        withObservationTracking {
            _ = root[keyPath: keyPath]
        } onChange: {
            Task { @MainActor in handle.receiver?.changed() }
        }
    }

    func changed() {
        guard lifeline.isAlive else { return }
        arm()
        let value = root[keyPath: keyPath]
        let source = source
        graph.performTurn(name: turnName, origin: .externalChange) { writer in writer[source] = value }
        graph.reached(.externalObservationRearm)
    }
}

extension Graph {
    /// The hidden source of `root`'s `keyPath` in this runtime, linked on first use.
    func trackedSource<Root: Observable & AnyObject, Tracked>(
        _ root: Root, _ keyPath: KeyPath<Root, Tracked>, name: @autoclosure () -> String
    ) -> Cog<Tracked>.Manual {
        let identity = ExternalPropertyIdentity(object: ObjectIdentifier(root), keyPath: keyPath)
        if let existing = externalBridges[identity] {
            guard let bridge = existing as? ExternalPropertyBridge<Root, Tracked> else {
                preconditionFailure("Cog: c.track found a different model type for one object and key path")
            }
            return bridge.source
        }
        let bridge = ExternalPropertyBridge(root: root, keyPath: keyPath, name: name(), graph: self)
        externalBridges[identity] = bridge
        bridge.arm()
        return bridge.source
    }
}

/// One model object's one property.
struct ExternalPropertyIdentity: Hashable {
    let object: ObjectIdentifier
    let keyPath: AnyKeyPath
}

/// What Observation's callback tells when a tracked property changed.
protocol ExternalChangeReceiver: AnyObject, Sendable {
    func changed()
}

/// A weak hold on a receiver that a Sendable callback can carry.
struct WeakChangeReceiver: Sendable {
    weak var receiver: (any ExternalChangeReceiver)?
}
