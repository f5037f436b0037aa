/// How a declaration decides that a new value equals the old one, so its consumers do no work:
/// never (every write or result is a change), a rule the declaration gave, or `==`.
///
/// `==` is held as a witness value rather than a closure: a declaration may be made in code of
/// any isolation, and a Sendable closure formed there could not capture a generic type's
/// conformance. The runtime turns the rule into a plain closure on the MainActor, once per state.
nonisolated enum Equality<Value>: Sendable {
    case never
    case custom(@MainActor (Value, Value) -> Bool)
    case equatable(any EqualityWitness<Value>)

    /// The declaration's own rule, or never.
    static func given(_ rule: (@MainActor (Value, Value) -> Bool)?) -> Equality {
        rule.map { .custom($0) } ?? .never
    }

    /// The rule a state's node applies: nil when every value is a change.
    @MainActor var comparison: ((Value, Value) -> Bool)? {
        switch self {
        case .never: nil
        case .custom(let rule): rule
        case .equatable(let witness): { witness.areEqual($0, $1) }
        }
    }
}

extension Equality where Value: Equatable {
    /// The declaration's own rule, or `==`.
    static func givenOrEquatable(_ rule: (@MainActor (Value, Value) -> Bool)?) -> Equality {
        rule.map { .custom($0) } ?? .equatable(EquatableWitness<Value>())
    }
}

/// Compares two values of one type.
nonisolated protocol EqualityWitness<Value>: Sendable {
    associatedtype Value
    func areEqual(_ old: Value, _ new: Value) -> Bool
}

/// `==` of an `Equatable` type, as a value.
nonisolated struct EquatableWitness<Value: Equatable>: EqualityWitness {
    func areEqual(_ old: Value, _ new: Value) -> Bool { old == new }
}
