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
    nonisolated public struct Manual: CogSourceReference, Sendable {
        let descriptor: Descriptor<Value>

        /// The state this declaration names (it has no key).

        public var address: CogAddress<Value> { CogAddress(descriptor: descriptor, key: nil) }

        /// Declares a source whose writes are compared with `equals` (or always treated as
        /// changed when it is nil and `Value` is not `Equatable`).
        ///
        /// - Parameters:
        ///   - name: The label people and traces see; defaults to `fileID:line`.
        ///   - equals: Decides whether a written value equals the current one.
        ///   - lifetime: `.app` (default) or `.whileObserved(resetToInitial: true)`.
        ///   - initial: Produces the starting value, once per state.
        public init(
            name: String? = nil, equals: (@MainActor (Value, Value) -> Bool)? = nil, lifetime: ManualCogLifetime = .app,
            fileID: String = #fileID, line: Int = #line,
            _ initial: @escaping @MainActor () -> Value
        ) {
            self.init(name: name, equality: .given(equals), lifetime: lifetime, fileID: fileID, line: line, initial)
        }

        /// Declares a source that starts at `initial`, evaluated once per state: the short form of
        /// the closure declaration, `Cog<Int>.Manual(0)`.
        public init(
            _ initial: @autoclosure @escaping @MainActor () -> Value, name: String? = nil,
            equals: (@MainActor (Value, Value) -> Bool)? = nil, lifetime: ManualCogLifetime = .app,
            fileID: String = #fileID, line: Int = #line
        ) {
            self.init(name: name, equality: .given(equals), lifetime: lifetime, fileID: fileID, line: line, initial)
        }

        init(
            name: String? = nil, equality: Equality<Value>, lifetime: ManualCogLifetime = .app,
            fileID: String = #fileID, line: Int = #line,
            _ initial: @escaping @MainActor () -> Value
        ) {
            descriptor = makeManualDescriptor(
                label: declarationLabel(name: name, fileID: fileID, line: line), isKeyed: false,
                lifetime: lifetime, equality: equality, initial: { @MainActor _ in initial() })
        }

        /// The read-only projection the rest of the app reads.
        public var readOnly: Projection { Projection(descriptor: descriptor) }
    }
}

extension Cog.Manual where Value: Equatable {
    /// Declares a source that starts at `initial`, with `==` deciding equal writes unless
    /// `equals` says otherwise: the short form of the closure declaration, `Cog<Int>.Manual(0)`.
    public init(
        _ initial: @autoclosure @escaping @MainActor () -> Value, name: String? = nil,
        equals: (@MainActor (Value, Value) -> Bool)? = nil, lifetime: ManualCogLifetime = .app,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            name: name, equality: .givenOrEquatable(equals), lifetime: lifetime, fileID: fileID, line: line, initial)
    }

    /// Declares a source whose equal writes are discarded (`==` unless `equals` says otherwise).
    ///
    /// - Parameters:
    ///   - name: The label people and traces see; defaults to `fileID:line`.
    ///   - equals: Decides whether a written value equals the current one; `==` by default.
    ///   - lifetime: `.app` (default) or `.whileObserved(resetToInitial: true)`.
    ///   - initial: Produces the starting value, once per state.
    public init(
        name: String? = nil, equals: (@MainActor (Value, Value) -> Bool)? = nil, lifetime: ManualCogLifetime = .app,
        fileID: String = #fileID, line: Int = #line,
        _ initial: @escaping @MainActor () -> Value
    ) {
        self.init(
            name: name, equality: .givenOrEquatable(equals), lifetime: lifetime, fileID: fileID, line: line, initial)
    }
}

/// Builds the descriptor of a manual declaration, checking its lifetime.
nonisolated func makeManualDescriptor<Value>(
    label: String, isKeyed: Bool, lifetime: ManualCogLifetime, equality: Equality<Value>,
    initial: @escaping @MainActor (StateKey?) -> Value
) -> Descriptor<Value> {
    lifetime.validate(label: label)
    return Descriptor<Value>(
        label: label, isKeyed: isKeyed, recipe: .manual(initial: initial, lifetime: lifetime), equality: equality)
}
