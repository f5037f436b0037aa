extension Cog {
    /// A keyless async value: a fact that arrives from outside the process.
    ///
    /// A plain read returns the last accepted success or the default; `status[ref]` tells
    /// loading and failure apart. The selector reads its dependencies synchronously and returns
    /// the work; a dependency change runs it again and the policy decides what happens to the
    /// old work.
    ///
    /// ```swift
    /// let forecastCog = Cog<Forecast?>.Async(default: nil) { c in
    ///     let service = c[serviceCog]
    ///     return .run { try await service.forecast() }
    /// }
    /// ```
    nonisolated public struct Async: CogAsyncReference, Sendable {
        let descriptor: Descriptor<Value>

        /// The state this declaration names (it has no key).

        public var address: CogAddress<Value> { CogAddress(descriptor: descriptor, key: nil) }

        /// Declares an async value whose work may be a stream; only `.latest` applies.
        ///
        /// - Parameters:
        ///   - policy: `.latest` (the default).
        ///   - defaultValue: What reads return before the first success; made once per state.
        ///   - name: The label people and traces see; defaults to `fileID:line`.
        ///   - equals: Decides whether a new result equals the current value.
        ///   - selector: Reads dependencies with `c[...]` and returns `.run { … }` or `.stream { … }`.
        public init(
            _ policy: LatestPolicy = .latest, default defaultValue: @autoclosure @escaping @MainActor () -> Value,
            name: String? = nil, equals: (@MainActor (Value, Value) -> Bool)? = nil,
            fileID: String = #fileID, line: Int = #line,
            _ selector: @escaping @MainActor (Reader<Value>) -> Work<Value>
        ) {
            self.init(
                policy, default: defaultValue(), name: name, equality: .given(equals), fileID: fileID, line: line,
                selector)
        }

        init(
            _ policy: LatestPolicy = .latest, default defaultValue: @autoclosure @escaping @MainActor () -> Value,
            name: String? = nil, equality: Equality<Value>,
            fileID: String = #fileID, line: Int = #line,
            _ selector: @escaping @MainActor (Reader<Value>) -> Work<Value>
        ) {
            descriptor = makeAsyncDescriptor(
                label: declarationLabel(name: name, fileID: fileID, line: line), isKeyed: false,
                policy: .latest, equality: equality, makeDefault: defaultValue,
                bind: { @MainActor _ in { @MainActor c in selector(c).body } })
        }

        /// Declares an async value with an ordered policy, whose work is one value per run.
        ///
        /// - Parameters:
        ///   - policy: `.queue`, `.exhaustLatest` or `.merged`.
        ///   - defaultValue: What reads return before the first success; made once per state.
        ///   - name: The label people and traces see; defaults to `fileID:line`.
        ///   - equals: Decides whether a new result equals the current value.
        ///   - selector: Reads dependencies with `c[...]` and returns `.run { … }`.
        public init(
            _ policy: OrderedPolicy, default defaultValue: @autoclosure @escaping @MainActor () -> Value,
            name: String? = nil, equals: (@MainActor (Value, Value) -> Bool)? = nil,
            fileID: String = #fileID, line: Int = #line,
            _ selector: @escaping @MainActor (Reader<Value>) -> RunWork<Value>
        ) {
            self.init(
                policy, default: defaultValue(), name: name, equality: .given(equals), fileID: fileID, line: line,
                selector)
        }

        init(
            _ policy: OrderedPolicy, default defaultValue: @autoclosure @escaping @MainActor () -> Value,
            name: String? = nil, equality: Equality<Value>,
            fileID: String = #fileID, line: Int = #line,
            _ selector: @escaping @MainActor (Reader<Value>) -> RunWork<Value>
        ) {
            descriptor = makeAsyncDescriptor(
                label: declarationLabel(name: name, fileID: fileID, line: line), isKeyed: false,
                policy: policy.kind, equality: equality, makeDefault: defaultValue,
                bind: { @MainActor _ in { @MainActor c in selector(c).body } })
        }
    }
}

extension Cog.Async where Value: Equatable {
    /// Declares an async value gated by `==`, whose work may be a stream.
    public init(
        _ policy: LatestPolicy = .latest, default defaultValue: @autoclosure @escaping @MainActor () -> Value,
        name: String? = nil, equals: (@MainActor (Value, Value) -> Bool)? = nil,
        fileID: String = #fileID, line: Int = #line,
        _ selector: @escaping @MainActor (Reader<Value>) -> Work<Value>
    ) {
        self.init(
            policy, default: defaultValue(), name: name, equality: .givenOrEquatable(equals), fileID: fileID,
            line: line, selector)
    }

    /// Declares an async value gated by `==`, with an ordered policy.
    public init(
        _ policy: OrderedPolicy, default defaultValue: @autoclosure @escaping @MainActor () -> Value,
        name: String? = nil, equals: (@MainActor (Value, Value) -> Bool)? = nil,
        fileID: String = #fileID, line: Int = #line,
        _ selector: @escaping @MainActor (Reader<Value>) -> RunWork<Value>
    ) {
        self.init(
            policy, default: defaultValue(), name: name, equality: .givenOrEquatable(equals), fileID: fileID,
            line: line, selector)
    }
}

/// Builds the descriptor of an async declaration.
nonisolated func makeAsyncDescriptor<Value>(
    label: String, isKeyed: Bool, policy: AsyncPolicyKind, equality: Equality<Value>,
    makeDefault: @escaping @MainActor () -> Value,
    bind: @escaping @MainActor (StateKey?) -> @MainActor (Reader<Value>) -> WorkBody<Value>
) -> Descriptor<Value> {
    return Descriptor<Value>(
        label: label, isKeyed: isKeyed, recipe: .async(makeDefault: makeDefault, policy: policy, bind: bind),
        equality: equality)
}
