/// How a declaration decides that a new value equals the old one, so its consumers do no work:
/// never (every write or result is a change), a rule the declaration gave, or `==`.
///
/// `==` is held as a metatype (`EquatableComparison<Value>.self`) rather than a closure: a
/// declaration may be made in code of any isolation, and a Sendable closure formed there could not
/// capture a generic type's conformance. Both members have one layout whatever `Value` is, so the
/// runtime's unspecialized code copies them into each state without looking up any generic
/// metadata (which, per state and per comparison, once cost a tenth of building a big graph).
@usableFromInline
nonisolated struct Equality<Value>: Sendable {
    /// The declaration's own rule, if it gave one.
    @usableFromInline let rule: (@MainActor (Value, Value) -> Bool)?
    /// `==` of the value type, when the declaration compares with it.
    @usableFromInline let comparison: (any ValueComparison.Type)?

    @usableFromInline
    init(rule: (@MainActor (Value, Value) -> Bool)?, comparison: (any ValueComparison.Type)?) {
        self.rule = rule
        self.comparison = comparison
    }

    /// The declaration's own rule, or never.
    static func given(_ rule: (@MainActor (Value, Value) -> Bool)?) -> Equality {
        Equality(rule: rule, comparison: nil)
    }
}

extension Equality where Value: Equatable {
    /// The declaration's own rule, or `==`.
    @inlinable
    static func givenOrEquatable(_ rule: (@MainActor (Value, Value) -> Bool)?) -> Equality {
        guard let rule else { return Equality(rule: nil, comparison: EquatableComparison<Value>.self) }
        return Equality(rule: rule, comparison: nil)
    }
}

/// Compares two values of one type, given where they are; a conforming type stands for the
/// comparison of its value type.
@usableFromInline
nonisolated protocol ValueComparison: SendableMetatype {
    /// Whether the values at `old` and `new` (both of the comparison's value type) are equal.
    static func areEqual(_ old: UnsafeRawPointer, _ new: UnsafeRawPointer) -> Bool
}

/// `==` of an `Equatable` type.
@usableFromInline
nonisolated enum EquatableComparison<Value: Equatable>: ValueComparison {
    @usableFromInline
    static func areEqual(_ old: UnsafeRawPointer, _ new: UnsafeRawPointer) -> Bool {
        old.assumingMemoryBound(to: Value.self).pointee == new.assumingMemoryBound(to: Value.self).pointee
    }
}

/// Whether `old` and `new` are equal by `comparison`. Nonisolated, like `lendPointer`, so the
/// pointers are lent without an executor check per comparison.
nonisolated func areEqual<Value>(
    _ old: Value, _ new: Value, by comparison: any ValueComparison.Type
) -> Bool {
    withUnsafePointer(to: old) { old in withUnsafePointer(to: new) { new in comparison.areEqual(old, new) } }
}
