/// An app-wide side effect registered at assembly: initial state, persistence, alerts, timers.
///
/// `Cogs.assemble(mechanisms:)` runs each mechanism's `operate` in array order, and their writes
/// finish before it returns. A mechanism owns its capabilities as stored properties and names
/// every registration it makes.
///
/// ```swift
/// struct TodoMechanism: Mechanism {
///     let store: TodoStore
///
///     func operate(_ m: MechanismController) {
///         m.installTodos(store.load() ?? [])
///         m.watch(todoSnapshotCog, initial: .skip, name: "persistence") { _, snapshot in
///             store.save(snapshot)
///         }
///     }
/// }
/// ```
@MainActor
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

/// Whether a watch calls its handler once at registration.
public enum WatchInitial: Sendable {
    /// Only later changes call the handler.
    case skip
    /// The handler also runs at registration, with the current value as both old and new.
    case run
}
