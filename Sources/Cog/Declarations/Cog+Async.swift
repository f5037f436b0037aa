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
    public struct Async: CogAsyncReference {
        public let address: CogAddress<Value>

        /// Declares an async value whose work may be a stream; only `.latest` applies.
        ///
        /// - Parameters:
        ///   - policy: `.latest` (the default).
        ///   - defaultValue: What reads return before the first success; made once per state.
        ///   - name: The label people and traces see; defaults to `fileID:line`.
        ///   - equals: Decides whether a new result equals the current value.
        ///   - selector: Reads dependencies with `c[...]` and returns `.run { … }` or `.stream { … }`.
        public init(
            _ policy: LatestPolicy = .latest, default defaultValue: @autoclosure @escaping () -> Value,
            name: String? = nil, equals: ((Value, Value) -> Bool)? = nil,
            fileID: String = #fileID, line: Int = #line,
            _ selector: @escaping (Reader<Value>) -> Work<Value>
        ) {
            address = makeAsyncAddress(
                label: declarationLabel(name: name, fileID: fileID, line: line), isKeyed: false,
                policy: .latest, equals: equals, makeDefault: defaultValue, bind: { _ in { selector($0).body } })
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
            _ policy: OrderedPolicy, default defaultValue: @autoclosure @escaping () -> Value,
            name: String? = nil, equals: ((Value, Value) -> Bool)? = nil,
            fileID: String = #fileID, line: Int = #line,
            _ selector: @escaping (Reader<Value>) -> RunWork<Value>
        ) {
            address = makeAsyncAddress(
                label: declarationLabel(name: name, fileID: fileID, line: line), isKeyed: false,
                policy: policy.kind, equals: equals, makeDefault: defaultValue, bind: { _ in { selector($0).body } })
        }
    }
}

extension Cog.Async where Value: Equatable {
    /// Declares an async value gated by `==`, whose work may be a stream.
    public init(
        _ policy: LatestPolicy = .latest, default defaultValue: @autoclosure @escaping () -> Value,
        name: String? = nil, equals: @escaping (Value, Value) -> Bool = (==),
        fileID: String = #fileID, line: Int = #line,
        _ selector: @escaping (Reader<Value>) -> Work<Value>
    ) {
        self.init(
            policy, default: defaultValue(), name: name, equals: .some(equals), fileID: fileID, line: line,
            selector)
    }

    /// Declares an async value gated by `==`, with an ordered policy.
    public init(
        _ policy: OrderedPolicy, default defaultValue: @autoclosure @escaping () -> Value,
        name: String? = nil, equals: @escaping (Value, Value) -> Bool = (==),
        fileID: String = #fileID, line: Int = #line,
        _ selector: @escaping (Reader<Value>) -> RunWork<Value>
    ) {
        self.init(
            policy, default: defaultValue(), name: name, equals: .some(equals), fileID: fileID, line: line,
            selector)
    }
}

/// Builds the descriptor of an async declaration.
func makeAsyncAddress<Value>(
    label: String, isKeyed: Bool, policy: AsyncPolicyKind, equals: ((Value, Value) -> Bool)?,
    makeDefault: @escaping () -> Value, bind: @escaping (AnyHashable?) -> (Reader<Value>) -> WorkBody<Value>
) -> CogAddress<Value> {
    let descriptor = Descriptor<Value>(
        label: label, isKeyed: isKeyed, recipe: .async(makeDefault: makeDefault, policy: policy, bind: bind),
        equals: equals)
    return CogAddress(descriptor: descriptor, key: nil)
}
