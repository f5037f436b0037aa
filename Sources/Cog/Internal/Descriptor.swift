/// The shape of a declaration: how its state's value is produced.
public enum CogShape: String, Sendable, Codable {
    /// A writable source (`Cog<Value>.Manual`, `CogBox<Value, Key>.Manual`).
    case manual
    /// A cached value computed from other states (`Cog<Value>`, `CogBox<Value, Key>`).
    case automatic
    /// A value that arrives from outside the process (`.Async`).
    case async
    /// A registered reaction or watch; it has dependencies but no value.
    case reaction
}

/// Hands out descriptor slots: a dense index so a runtime can find a keyless state with one array access.
enum DescriptorSlots {
    private static var next = 0

    static func claim() -> Int {
        defer { next += 1 }
        return next
    }
}

/// One declaration: a fixed name and recipe shared by every state it names, in every runtime.
///
/// Descriptors are created by the file-scope `let`s of an app and live for the process; their
/// identity is the object's identity.
@usableFromInline
class AnyDescriptor {
    let slot: Int
    let label: String
    let shape: CogShape
    let isKeyed: Bool
    let valueTypeName: String
    /// Whether a state of this declaration may be released when unused, and its own grace (nil:
    /// the runtime's). Manual sources are `.app` unless declared otherwise; automatic and async
    /// states are released when unused.
    let isReleasable: Bool
    let grace: Duration?
    /// The declaration as a probe sees it, made once per runtime grace (the lifetime names it).
    private var probeDescription: (grace: Duration, info: CogDeclarationInfo)?

    /// What a probe learns about this declaration in a runtime whose grace is `defaultGrace`;
    /// `policy` is its states' async policy (the same for all of them).
    func declarationInfo(defaultGrace: Duration, policy: AsyncPolicyKind?) -> CogDeclarationInfo {
        let effective = grace ?? defaultGrace
        if let cached = probeDescription, cached.grace == effective { return cached.info }
        let info = CogDeclarationInfo(
            label: label, shape: shape, valueType: valueTypeName,
            lifetime: isReleasable ? "whileObserved(\(effective))" : "app", policy: policy)
        probeDescription = (effective, info)
        return info
    }

    init(
        label: String, shape: CogShape, isKeyed: Bool, valueTypeName: String, isReleasable: Bool = false,
        grace: Duration? = nil
    ) {
        self.isReleasable = isReleasable
        self.grace = grace
        self.slot = DescriptorSlots.claim()
        self.label = label
        self.shape = shape
        self.isKeyed = isKeyed
        self.valueTypeName = valueTypeName
    }

    /// Creates the state this descriptor names for `key` in `graph`.
    func makeNode(id: Int, key: AnyHashable?) -> Node {
        fatalError("AnyDescriptor.makeNode must be overridden")
    }
}

/// A typed descriptor with the recipe that makes its states.
@usableFromInline
final class Descriptor<Value>: AnyDescriptor {
    enum Recipe {
        /// A source: the closure produces the starting value for one key, once per state.
        case manual(initial: (AnyHashable?) -> Value, lifetime: ManualCogLifetime)
        /// An automatic value: the closure binds the selector to one key, once per state.
        case automatic(bind: (AnyHashable?) -> (Reader<Value>) -> Value)
        /// An async value: a default made once per state, a policy, and the selector bound to one key.
        case async(
            makeDefault: () -> Value, policy: AsyncPolicyKind,
            bind: (AnyHashable?) -> (Reader<Value>) -> WorkBody<Value>)
    }

    let recipe: Recipe
    let equals: ((Value, Value) -> Bool)?

    init(label: String, isKeyed: Bool, recipe: Recipe, equals: ((Value, Value) -> Bool)?) {
        self.recipe = recipe
        self.equals = equals
        let shape: CogShape
        var isReleasable = true
        var grace: Duration?
        switch recipe {
        case .manual(_, let lifetime):
            shape = .manual
            if case .whileObserved(_, let ownGrace) = lifetime {
                grace = ownGrace
            } else {
                isReleasable = false
            }
        case .automatic: shape = .automatic
        case .async: shape = .async
        }
        super.init(
            label: label, shape: shape, isKeyed: isKeyed, valueTypeName: String(describing: Value.self),
            isReleasable: isReleasable, grace: grace)
    }

    override func makeNode(id: Int, key: AnyHashable?) -> Node {
        switch recipe {
        case .manual(let initial, _):
            return SourceNode<Value>(id: id, descriptor: self, key: key, value: initial(key), equals: equals)
        case .automatic(let bind):
            return ComputedNode<Value>(id: id, descriptor: self, key: key, compute: bind(key), equals: equals)
        case .async(let makeDefault, let policy, let bind):
            return AsyncNode<Value>(
                id: id, descriptor: self, key: key, defaultValue: makeDefault(),
                policy: policy, select: bind(key), equals: equals)
        }
    }

    /// Creates a source state holding `value` instead of calling the starting-value closure (seeding).
    func makeSeededNode(id: Int, key: AnyHashable?, value: Value) -> Node {
        SourceNode<Value>(id: id, descriptor: self, key: key, value: value, equals: equals)
    }
}

/// Builds the default label of a declaration: its `name:`, else where it is declared.
func declarationLabel(name: String?, fileID: String, line: Int) -> String {
    name ?? "\(fileID):\(line)"
}
