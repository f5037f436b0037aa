/// What a probe learns about a state when it is created: its identity, its declaration, and its
/// key. Everything but the key is shared by the declaration's states, so telling a probe about
/// a new state copies one reference instead of a handful of strings.
nonisolated public struct CogStateInfo: Hashable, Sendable {
    /// The state's identity in this runtime.
    public let id: CogStateID
    /// What the state's declaration says, shared by every state it names in this runtime.
    public let declarationInfo: CogDeclarationInfo
    /// The key rendered as text, for a keyed state.
    public let key: String?

    /// Describes a state of `declarationInfo`.
    public init(id: CogStateID, declarationInfo: CogDeclarationInfo, key: String?) {
        self.id = id
        self.declarationInfo = declarationInfo
        self.key = key
    }

    /// The label a person reads: the declaration's label, and `[key]` for a keyed state.
    public var label: String {
        guard let key else { return declarationInfo.label }
        return declarationInfo.label + "[" + key + "]"
    }
    /// The declaration's label (its `name:`, or `fileID:line`).
    public var declaration: String { declarationInfo.label }
    /// How the value is produced.
    public var shape: CogShape { declarationInfo.shape }
    /// The Swift type of the value.
    public var valueType: String { declarationInfo.valueType }
    /// `app`, or `whileObserved` with its grace when the state may be released.
    public var lifetime: String { declarationInfo.lifetime }
    /// The async policy, for an async state.
    public var policy: AsyncPolicyKind? { declarationInfo.policy }
}

/// A declaration as a probe sees it, made once per declaration and runtime grace.
nonisolated public final class CogDeclarationInfo: Hashable, Sendable, CustomStringConvertible {
    /// The declaration's label (its `name:`, or `fileID:line`).
    public let label: String
    /// How the value is produced.
    public let shape: CogShape
    /// The Swift type of the value.
    public let valueType: String
    /// `app`, or `whileObserved` with its grace when the state may be released.
    public let lifetime: String
    /// The async policy, for an async declaration.
    public let policy: AsyncPolicyKind?

    /// Describes a declaration.
    public init(label: String, shape: CogShape, valueType: String, lifetime: String, policy: AsyncPolicyKind?) {
        self.label = label
        self.shape = shape
        self.valueType = valueType
        self.lifetime = lifetime
        self.policy = policy
    }

    public static func == (lhs: CogDeclarationInfo, rhs: CogDeclarationInfo) -> Bool {
        lhs === rhs
            || (lhs.label == rhs.label && lhs.shape == rhs.shape && lhs.valueType == rhs.valueType
                && lhs.lifetime == rhs.lifetime && lhs.policy == rhs.policy)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(label)
        hasher.combine(shape)
        hasher.combine(valueType)
        hasher.combine(lifetime)
        hasher.combine(policy)
    }

    public var description: String { "\(label) (\(shape.rawValue) \(valueType), \(lifetime))" }
}
