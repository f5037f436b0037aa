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

    /// Appends the producers' raw ids to `rawIDs`, in read order: one call for the list, where
    /// reading it through `count` and the subscript from another module was two calls for the
    /// list and one for each producer (the recorder keeps 4,000 lists a lattice run).
    package func appendRawIDs(to rawIDs: inout ContiguousArray<Int>) {
        // Through a buffer: a `for` over the array retained and released it each call.
        dependencies.withUnsafeBufferPointer { buffer in
            for dependency in buffer { rawIDs.append(dependency.producer.id) }
        }
    }
}
