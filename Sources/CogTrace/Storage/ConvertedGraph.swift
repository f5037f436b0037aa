import CogTraceFormat

/// A graph a converter applies events to (`applyEvent`): the packed graph a writer keeps, or a
/// snapshot a recorder folds evicted turns into. Converting also reads a consumer's previous
/// dependency list, to tell the edges a new one adds and removes.
protocol ConvertedGraph: EventApplying {
    /// What `consumer`'s new list `producers` changes against its previous one.
    func dependencyChange(of consumer: NodeID, to producers: [NodeID]) -> DependencyChange
}

extension PackedGraph: ConvertedGraph {}

extension GraphSnapshot: ConvertedGraph {
    func dependencyChange(of consumer: NodeID, to producers: [NodeID]) -> DependencyChange {
        // States and registrations share one id space, so a state's list has no holder. It is
        // read where it lies: the table's subscript would copy the whole state out (its value,
        // lists and leases retained, then released) for one field.
        if let position = states.position(of: consumer) {
            return DependencyChange(
                holder: nil, previous: states.read(at: position) { $0.dependencies[...] }, producers: producers)
        }
        return DependencyChange(of: registrations[consumer], to: producers)
    }
}
