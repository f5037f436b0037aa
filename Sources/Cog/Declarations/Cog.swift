/// A keyless automatic value: a cached value computed from other states.
///
/// It recomputes only when a dependency it read in its last run changed, and equality gates its
/// result so consumers of an equal value do no work.
///
/// ```swift
/// let activeTodoCountCog = Cog<Int> { c in
///     let todoIDs = c[todoIDsCog]
///     return todoIDs.count
/// }
/// ```
///
/// The other keyless shapes nest here: `Cog<Value>.Manual` and its `.readOnly` `Cog<Value>.Projection`.
nonisolated public struct Cog<Value>: CogReference, Sendable {
    @usableFromInline let descriptor: Descriptor<Value>

    /// The state this declaration names (it has no key).

    public var address: CogAddress<Value> { CogAddress(descriptor: descriptor, key: nil) }

    /// Declares an automatic value whose results are compared with `equals` (or always treated as
    /// changed when it is nil and `Value` is not `Equatable`).
    ///
    /// - Parameters:
    ///   - name: The label people and traces see; defaults to `fileID:line`.
    ///   - equals: Decides whether a new result equals the old one.
    ///   - selector: Reads dependencies with `c[...]` and returns the value. It must not write.
    public init(
        name: String? = nil, equals: (@MainActor (Value, Value) -> Bool)? = nil,
        fileID: String = #fileID, line: Int = #line,
        _ selector: @escaping @MainActor (Reader<Value>) -> Value
    ) {
        self.init(name: name, equality: .given(equals), fileID: fileID, line: line, selector)
    }

    // Inlinable, with the Equatable init below, so a client's declaration is built by code
    // specialized for its value type, which finds the generic metadata it needs in a cache of
    // its own rather than the runtime's table.
    @inlinable
    init(
        name: String? = nil, equality: Equality<Value>,
        fileID: String = #fileID, line: Int = #line,
        _ selector: @escaping @MainActor (Reader<Value>) -> Value
    ) {
        let descriptor = Descriptor<Value>(
            label: declarationLabel(name: name, fileID: fileID, line: line), isKeyed: false,
            recipe: .computed(selector: selector), equality: equality)
        self.descriptor = descriptor
    }
}

extension Cog where Value: Equatable {
    /// Declares an automatic value gated by `==` unless `equals` says otherwise.
    ///
    /// - Parameters:
    ///   - name: The label people and traces see; defaults to `fileID:line`.
    ///   - equals: Decides whether a new result equals the old one; `==` by default.
    ///   - selector: Reads dependencies with `c[...]` and returns the value. It must not write.
    @inlinable
    public init(
        name: String? = nil, equals: (@MainActor (Value, Value) -> Bool)? = nil,
        fileID: String = #fileID, line: Int = #line,
        _ selector: @escaping @MainActor (Reader<Value>) -> Value
    ) {
        self.init(name: name, equality: .givenOrEquatable(equals), fileID: fileID, line: line, selector)
    }
}

extension Cog {
    /// The read-only face of a manual source: the name the rest of the app reads.
    nonisolated public struct Projection: CogReference, Sendable {
        let descriptor: Descriptor<Value>

        /// The state this declaration names (it has no key).

        public var address: CogAddress<Value> { CogAddress(descriptor: descriptor, key: nil) }
    }
}
