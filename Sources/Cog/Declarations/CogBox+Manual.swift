extension CogBox {
    /// A keyed writable source: one value per key, so editing one row invalidates one row.
    ///
    /// ```swift
    /// private let _todoTitleCogs = CogBox<String, TodoID>.Manual { "" }
    /// let todoTitleCogs = _todoTitleCogs.readOnly
    /// ```
    nonisolated public struct Manual: Sendable {
        let descriptor: Descriptor<Value>

        /// Declares a keyed source whose starting value may depend on the key.
        ///
        /// - Parameters:
        ///   - name: The label people and traces see; defaults to `fileID:line`.
        ///   - equals: Decides whether a written value equals the current one.
        ///   - lifetime: `.app` (default) or `.whileObserved(resetToInitial: true)`.
        ///   - initial: Produces one key's starting value, once per state.
        public init(
            name: String? = nil, equals: (@MainActor (Value, Value) -> Bool)? = nil, lifetime: ManualCogLifetime = .app,
            fileID: String = #fileID, line: Int = #line,
            _ initial: @escaping @MainActor (Key) -> Value
        ) {
            self.init(name: name, equality: .given(equals), lifetime: lifetime, fileID: fileID, line: line, initial)
        }

        init(
            name: String? = nil, equality: Equality<Value>, lifetime: ManualCogLifetime = .app,
            fileID: String = #fileID, line: Int = #line,
            _ initial: @escaping @MainActor (Key) -> Value
        ) {
            descriptor =
                makeManualDescriptor(
                    label: declarationLabel(name: name, fileID: fileID, line: line), isKeyed: true,
                    lifetime: lifetime, equality: equality,
                    initial: { @MainActor key in initial(key!.value(as: Key.self)) }
                )
        }

        /// Declares a keyed source whose starting value is the same for every key.
        public init(
            name: String? = nil, equals: (@MainActor (Value, Value) -> Bool)? = nil, lifetime: ManualCogLifetime = .app,
            fileID: String = #fileID, line: Int = #line,
            _ initial: @escaping @MainActor () -> Value
        ) {
            self.init(name: name, equality: .given(equals), lifetime: lifetime, fileID: fileID, line: line, initial)
        }

        init(
            name: String? = nil, equality: Equality<Value>, lifetime: ManualCogLifetime = .app,
            fileID: String = #fileID, line: Int = #line,
            _ initial: @escaping @MainActor () -> Value
        ) {
            self.init(name: name, equality: equality, lifetime: lifetime, fileID: fileID, line: line) { (_: Key) in
                initial()
            }
        }

        /// The writable reference to one key's state.
        public subscript(key: Key) -> CogBoxSourceReference<Value> {
            CogBoxSourceReference(address: CogAddress(descriptor: descriptor, key: StateKey(key)))
        }

        /// The read-only projection the rest of the app reads.
        public var readOnly: Projection { Projection(descriptor: descriptor) }
    }
}

extension CogBox.Manual where Value: Equatable {
    /// Declares a keyed source gated by `==`, whose starting value may depend on the key.
    public init(
        name: String? = nil, equals: (@MainActor (Value, Value) -> Bool)? = nil, lifetime: ManualCogLifetime = .app,
        fileID: String = #fileID, line: Int = #line,
        _ initial: @escaping @MainActor (Key) -> Value
    ) {
        self.init(
            name: name, equality: .givenOrEquatable(equals), lifetime: lifetime, fileID: fileID, line: line, initial)
    }

    /// Declares a keyed source gated by `==`, with one starting value for every key.
    public init(
        name: String? = nil, equals: (@MainActor (Value, Value) -> Bool)? = nil, lifetime: ManualCogLifetime = .app,
        fileID: String = #fileID, line: Int = #line,
        _ initial: @escaping @MainActor () -> Value
    ) {
        self.init(
            name: name, equality: .givenOrEquatable(equals), lifetime: lifetime, fileID: fileID, line: line, initial)
    }
}

extension CogBox.Manual {
    /// Declares a keyed source whose every key starts at `startingValue` (the public library's
    /// spelling, `CogBox<Int, String>.Manual(0, name: "counts")`): the closure form with a
    /// constant. A reference-type value is shared by every key, which is why it is deprecated in
    /// favour of the closure (seed §30): old code compiles, new code is steered to `Manual { 0 }`.
    @_disfavoredOverload
    @available(*, deprecated, message: "write Manual { value }: one starting value is shared by every key")
    public init(
        _ startingValue: sending Value, equals: (@MainActor (Value, Value) -> Bool)? = nil,
        lifetime: ManualCogLifetime = .app, name: String? = nil, fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            name: name, equality: .given(equals), lifetime: lifetime, fileID: fileID, line: line,
            { startingValue })
    }
}

extension CogBox.Manual where Value: Equatable {
    /// Declares a keyed `Equatable` source whose every key starts at `startingValue`, gated by
    /// `==` unless `equals` says otherwise.
    @_disfavoredOverload
    @available(*, deprecated, message: "write Manual { value }: one starting value is shared by every key")
    public init(
        _ startingValue: sending Value, equals: (@MainActor (Value, Value) -> Bool)? = nil,
        lifetime: ManualCogLifetime = .app, name: String? = nil, fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            name: name, equality: .givenOrEquatable(equals), lifetime: lifetime, fileID: fileID, line: line,
            { startingValue })
    }
}
