/// A consumer's dependencies in read order, lent to a probe for one call.
///
/// It reads the runtime's own edge list, so reporting a new list allocates nothing. It cannot be
/// copied, and a probe only borrows it, so it can never outlive the call that lends it: the
/// states it names are only guaranteed to exist until then. Copy the identities out (`ids`, or
/// the subscript) to keep them.
nonisolated public struct CogProducerList: ~Copyable {
    let dependencies: ContiguousArray<Dependency>

    init(_ dependencies: ContiguousArray<Dependency>) {
        self.dependencies = dependencies
    }

    /// How many producers the consumer read.
    public var count: Int { dependencies.count }

    /// Whether the consumer read nothing.
    public var isEmpty: Bool { dependencies.isEmpty }

    /// The producer read `index`-th, from 0.
    public subscript(index: Int) -> CogStateID { CogStateID(dependencies[index].producer.id) }

    /// The producers as an array, for a probe that keeps them.
    public var ids: [CogStateID] { dependencies.map { CogStateID($0.producer.id) } }
}
