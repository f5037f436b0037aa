extension CogBox {
    /// A keyed async value: one async state per key, each with its own generations.
    ///
    /// ```swift
    /// let weatherForecastCogs = CogBox<WeatherReading?, ZipCode>.Async(default: nil) { c, zip in
    ///     let weatherService = c[weatherServiceCog]
    ///     return .run { @concurrent in
    ///         try await weatherService.forecast(for: zip)
    ///     }
    /// }
    /// ```
    nonisolated public struct Async: Sendable {
        let descriptor: Descriptor<Value>

        /// Declares a keyed async value whose work may be a stream; only `.latest` applies.
        ///
        /// - Parameters:
        ///   - policy: `.latest` (the default).
        ///   - defaultValue: What reads return before the first success; made once per state.
        ///   - name: The label people and traces see; a state renders as `label[key]`.
        ///   - equals: Decides whether a new result equals the current value.
        ///   - selector: Reads dependencies for one key and returns `.run { … }` or `.stream { … }`.
        public init(
            _ policy: LatestPolicy = .latest, default defaultValue: @autoclosure @escaping @MainActor () -> Value,
            name: String? = nil, equals: (@MainActor (Value, Value) -> Bool)? = nil,
            fileID: String = #fileID, line: Int = #line,
            _ selector: @escaping @MainActor (Reader<Value>, Key) -> Work<Value>
        ) {
            self.init(
                policy, default: defaultValue(), name: name, equality: .given(equals), fileID: fileID, line: line,
                selector)
        }

        init(
            _ policy: LatestPolicy = .latest, default defaultValue: @autoclosure @escaping @MainActor () -> Value,
            name: String? = nil, equality: Equality<Value>,
            fileID: String = #fileID, line: Int = #line,
            _ selector: @escaping @MainActor (Reader<Value>, Key) -> Work<Value>
        ) {
            descriptor =
                makeAsyncDescriptor(
                    label: declarationLabel(name: name, fileID: fileID, line: line), isKeyed: true,
                    policy: .latest, equality: equality, makeDefault: defaultValue,
                    bind: keyedWork { @MainActor in selector($0, $1).body }
                )
        }

        /// Declares a keyed async value with an ordered policy, whose work is one value per run.
        public init(
            _ policy: OrderedPolicy, default defaultValue: @autoclosure @escaping @MainActor () -> Value,
            name: String? = nil, equals: (@MainActor (Value, Value) -> Bool)? = nil,
            fileID: String = #fileID, line: Int = #line,
            _ selector: @escaping @MainActor (Reader<Value>, Key) -> RunWork<Value>
        ) {
            self.init(
                policy, default: defaultValue(), name: name, equality: .given(equals), fileID: fileID, line: line,
                selector)
        }

        init(
            _ policy: OrderedPolicy, default defaultValue: @autoclosure @escaping @MainActor () -> Value,
            name: String? = nil, equality: Equality<Value>,
            fileID: String = #fileID, line: Int = #line,
            _ selector: @escaping @MainActor (Reader<Value>, Key) -> RunWork<Value>
        ) {
            descriptor =
                makeAsyncDescriptor(
                    label: declarationLabel(name: name, fileID: fileID, line: line), isKeyed: true,
                    policy: policy.kind, equality: equality, makeDefault: defaultValue,
                    bind: keyedWork { @MainActor in selector($0, $1).body }
                )
        }

        /// The reference to one key's async state.
        public subscript(key: Key) -> CogBoxAsyncReference<Value> {
            CogBoxAsyncReference(address: CogAddress(descriptor: descriptor, key: StateKey(key)))
        }
    }
}

extension CogBox.Async where Value: Equatable {
    /// Declares a keyed async value gated by `==`, whose work may be a stream.
    public init(
        _ policy: LatestPolicy = .latest, default defaultValue: @autoclosure @escaping @MainActor () -> Value,
        name: String? = nil, equals: (@MainActor (Value, Value) -> Bool)? = nil,
        fileID: String = #fileID, line: Int = #line,
        _ selector: @escaping @MainActor (Reader<Value>, Key) -> Work<Value>
    ) {
        self.init(
            policy, default: defaultValue(), name: name, equality: .givenOrEquatable(equals), fileID: fileID,
            line: line, selector)
    }

    /// Declares a keyed async value gated by `==`, with an ordered policy.
    public init(
        _ policy: OrderedPolicy, default defaultValue: @autoclosure @escaping @MainActor () -> Value,
        name: String? = nil, equals: (@MainActor (Value, Value) -> Bool)? = nil,
        fileID: String = #fileID, line: Int = #line,
        _ selector: @escaping @MainActor (Reader<Value>, Key) -> RunWork<Value>
    ) {
        self.init(
            policy, default: defaultValue(), name: name, equality: .givenOrEquatable(equals), fileID: fileID,
            line: line, selector)
    }
}

/// Binds a keyed async selector to one key, once per state.
nonisolated private func keyedWork<Value, Key: Hashable>(
    _ select: @escaping @MainActor (Reader<Value>, Key) -> WorkBody<Value>
) -> @MainActor (StateKey?) -> @MainActor (Reader<Value>) -> WorkBody<Value> {
    { @MainActor key in
        let typedKey = key!.value(as: Key.self)
        return { @MainActor c in select(c, typedKey) }
    }
}
