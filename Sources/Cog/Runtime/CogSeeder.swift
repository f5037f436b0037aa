/// Places source values in a fresh test runtime before any mechanism starts: no turn, no notice
/// and no reaction.
///
/// Apps wrap it in helpers beside their private sources, so tests can seed without a write path:
///
/// ```swift
/// extension CogSeeder {
///     func seedTodos(_ todos: [Todo]) { seed(_todoIDsCog, to: todos.map(\.id)) }
/// }
/// let cogs = Cogs.forTesting(seeding: { $0.seedTodos(items) })
/// ```
public struct CogSeeder {
    let graph: Graph

    package init(cogs: Cogs) {
        graph = cogs.graph
    }

    /// Gives `source` the value `value`, creating its state without calling its initial closure.
    public func seed<Source: CogSourceReference>(_ source: Source, to value: Source.Value) {
        graph.seed(value, for: source.address)
    }
}

extension Cogs {
    /// Places `value` in a source with no turn, notice or reaction: test and preview set-up, in
    /// `Cogs.forTesting(seeding:)` or later. A source that already exists takes the value, and
    /// what read it recomputes on its next read.
    public func seed<Source: CogSourceReference>(_ source: Source, to value: Source.Value) {
        graph.seed(value, for: source.address)
    }
}

extension Graph {
    func seed<Value>(_ value: Value, for address: CogAddress<Value>) {
        if let place = seedMisusePlace {
            let label = Node.label(descriptor: address.descriptor, key: address.key)
            return fail(
                .seedMisuse,
                "seed(_:to:) is for idle test setup, but '\(label)' was seeded \(place); seed it before the "
                    + "first turn (Cogs.forTesting(seeding:)), or write it in an op with turn")
        }
        let source: Node
        if let existing = existingNode(address.descriptor, key: address.key) {
            source = existing
            // A source's descriptor makes a `SourceNode<Value>`: the address's type fixes the node's.
            if unsafeDowncast(existing, to: SourceNode<Value>.self).seed(value) { markConsumers(of: source) }
        } else {
            source = install(address.descriptor.makeSeededNode(id: claimNodeID(), key: address.key, value: value))
        }
        probe?.record(.seeded(state: CogStateID(source.id), value: value))
    }

    /// Where a seed would land now, if not in idle setup: inside a turn's body, a selector or
    /// a reaction (seeding there would change a value behind the turn's back).
    private var seedMisusePlace: String? {
        if let running = trackingStack.last {
            return running is ReactionNode
                ? "from the reaction '\(running.label)'" : "from the selector of '\(running.label)'"
        }
        switch phase {
        case .idle: return nil
        case .accumulating: return "inside a turn's body"
        case .flushing: return "while a turn settles"
        }
    }
}
