extension Cog {
    /// A keyless writable source: a fact something outside the graph decides.
    ///
    /// Declare it private with a leading underscore and publish its `.readOnly` projection under
    /// the same name without the underscore; only the declaring file's ops can then write it.
    ///
    /// ```swift
    /// private let _todoFilterCog = Cog<TodoFilter>.Manual { .all }
    /// let todoFilterCog = _todoFilterCog.readOnly
    /// ```
    public struct Manual: CogSourceReference {
        public let address: CogAddress<Value>

        /// Declares a source whose writes are compared with `equals` (or always treated as
        /// changed when it is nil and `Value` is not `Equatable`).
        ///
        /// - Parameters:
        ///   - name: The label people and traces see; defaults to `fileID:line`.
        ///   - equals: Decides whether a written value equals the current one.
        ///   - lifetime: `.app` (default) or `.whileObserved(resetToInitial: true)`.
        ///   - initial: Produces the starting value, once per state.
        public init(
            name: String? = nil, equals: ((Value, Value) -> Bool)? = nil, lifetime: ManualCogLifetime = .app,
            fileID: String = #fileID, line: Int = #line,
            _ initial: @escaping () -> Value
        ) {
            address = makeManualAddress(
                label: declarationLabel(name: name, fileID: fileID, line: line), isKeyed: false,
                lifetime: lifetime, equals: equals, initial: { _ in initial() })
        }

        /// The read-only projection the rest of the app reads.
        public var readOnly: Projection { Projection(address: address) }
    }
}

extension Cog.Manual where Value: Equatable {
    /// Declares a source whose equal writes are discarded (`==` unless `equals` says otherwise).
    ///
    /// - Parameters:
    ///   - name: The label people and traces see; defaults to `fileID:line`.
    ///   - equals: Decides whether a written value equals the current one; `==` by default.
    ///   - lifetime: `.app` (default) or `.whileObserved(resetToInitial: true)`.
    ///   - initial: Produces the starting value, once per state.
    public init(
        name: String? = nil, equals: @escaping (Value, Value) -> Bool = (==), lifetime: ManualCogLifetime = .app,
        fileID: String = #fileID, line: Int = #line,
        _ initial: @escaping () -> Value
    ) {
        self.init(name: name, equals: .some(equals), lifetime: lifetime, fileID: fileID, line: line, initial)
    }
}

/// Builds the descriptor of a manual declaration, checking its lifetime.
func makeManualAddress<Value>(
    label: String, isKeyed: Bool, lifetime: ManualCogLifetime, equals: ((Value, Value) -> Bool)?,
    initial: @escaping (AnyHashable?) -> Value
) -> CogAddress<Value> {
    lifetime.validate(label: label)
    let descriptor = Descriptor<Value>(
        label: label, isKeyed: isKeyed, recipe: .manual(initial: initial, lifetime: lifetime), equals: equals)
    return CogAddress(descriptor: descriptor, key: nil)
}
