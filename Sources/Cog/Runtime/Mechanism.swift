/// An app-wide side effect registered at assembly: initial state, persistence, alerts, timers.
///
/// `Cogs.assemble(mechanisms:)` runs each mechanism's `operate` in array order, and their writes
/// finish before it returns.
public protocol Mechanism {
    /// The mechanism's name in history; the type name without a `Mechanism` suffix by default.
    var name: String { get }

    /// Writes initial state and registers the mechanism's work through `m`.
    func operate(_ m: MechanismController)
}

extension Mechanism {
    public var name: String {
        let typeName = String(describing: type(of: self))
        guard typeName.hasSuffix("Mechanism"), typeName != "Mechanism" else { return typeName }
        return String(typeName.dropLast("Mechanism".count))
    }
}

/// The controller a mechanism operates through: it runs the app's ops (`CogOps`) and registers
/// the mechanism's reactions.
public final class MechanismController: CogOps {
    /// The owning mechanism's name; registrations are named `mechanism.registration`.
    public let name: String
    public let operations: CogOperations

    init(name: String, graph: Graph) {
        self.name = name
        self.operations = CogOperations(graph: graph)
    }

    /// Registers a reaction: it runs now to record its dependencies, then again, against settled
    /// state and in registration order, after any of them changed. Its writes become later turns.
    ///
    /// - Parameters:
    ///   - name: The registration's name, shown as `Mechanism.name`.
    ///   - body: Reads with `c[...]` and acts.
    public func run(name: String, _ body: @escaping (Reader<Void>) -> Void) {
        operations.graph.registerReaction(name: "\(self.name).\(name)", body: body)
    }
}
