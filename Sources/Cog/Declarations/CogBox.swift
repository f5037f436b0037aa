/// A keyed automatic value: one cached state per key, so a change for one key recomputes one row.
///
/// ```swift
/// let isTrailSavedCogs = CogBox<Bool, TrailID> { c, trailID in
///     let savedTrailIDs = c[savedTrailIDsCog]
///     return savedTrailIDs.contains(trailID)
/// }
/// let isTrailSaved = cogs[isTrailSavedCogs[trailID]]
/// ```
///
/// States appear lazily per key; `box[key]` makes a reference and allocates nothing in the graph.
nonisolated public struct CogBox<Value, Key: Hashable>: Sendable {
    let descriptor: Descriptor<Value>

    /// Declares a keyed automatic value compared with `equals` (or always treated as changed when
    /// it is nil and `Value` is not `Equatable`).
    ///
    /// - Parameters:
    ///   - name: The label people and traces see; defaults to `fileID:line`. A state renders as
    ///     `label[key]`.
    ///   - equals: Decides whether a new result equals the old one.
    ///   - selector: Reads dependencies with `c[...]` for one key and returns its value.
    public init(
        name: String? = nil, equals: (@MainActor (Value, Value) -> Bool)? = nil,
        fileID: String = #fileID, line: Int = #line,
        _ selector: @escaping @MainActor (Reader<Value>, Key) -> Value
    ) {
        self.init(name: name, equality: .given(equals), fileID: fileID, line: line, selector)
    }

    init(
        name: String? = nil, equality: Equality<Value>,
        fileID: String = #fileID, line: Int = #line,
        _ selector: @escaping @MainActor (Reader<Value>, Key) -> Value
    ) {
        descriptor = makeKeyedAutomatic(
            label: declarationLabel(name: name, fileID: fileID, line: line), equality: equality, selector: selector)
    }

    /// The reference to one key's state.
    public subscript(key: Key) -> CogBoxReference<Value> {
        CogBoxReference(address: CogAddress(descriptor: descriptor, key: StateKey(key)))
    }
}

extension CogBox where Value: Equatable {
    /// Declares a keyed automatic value gated by `==` unless `equals` says otherwise.
    ///
    /// - Parameters:
    ///   - name: The label people and traces see; defaults to `fileID:line`.
    ///   - equals: Decides whether a new result equals the old one; `==` by default.
    ///   - selector: Reads dependencies with `c[...]` for one key and returns its value.
    public init(
        name: String? = nil, equals: (@MainActor (Value, Value) -> Bool)? = nil,
        fileID: String = #fileID, line: Int = #line,
        _ selector: @escaping @MainActor (Reader<Value>, Key) -> Value
    ) {
        self.init(name: name, equality: .givenOrEquatable(equals), fileID: fileID, line: line, selector)
    }
}

extension CogBox {
    /// The read-only face of a manual box.
    nonisolated public struct Projection: Sendable {
        let descriptor: Descriptor<Value>

        /// The read-only reference to one key's state.
        public subscript(key: Key) -> CogBoxReference<Value> {
            CogBoxReference(address: CogAddress(descriptor: descriptor, key: StateKey(key)))
        }
    }
}

/// Builds a keyed automatic descriptor that binds the selector to its key once per state.
nonisolated private func makeKeyedAutomatic<Value, Key: Hashable>(
    label: String, equality: Equality<Value>, selector: @escaping @MainActor (Reader<Value>, Key) -> Value
) -> Descriptor<Value> {
    Descriptor<Value>(
        label: label, isKeyed: true,
        recipe: .automatic(bind: { @MainActor key in
            let typedKey = key!.value(as: Key.self)
            return { @MainActor c in selector(c, typedKey) }
        }),
        equality: equality)
}
