import Synchronization

/// The shape of a declaration: how its state's value is produced.
nonisolated public enum CogShape: String, Sendable, Codable {
    /// A writable source (`Cog<Value>.Manual`, `CogBox<Value, Key>.Manual`).
    case manual
    /// A cached value computed from other states (`Cog<Value>`, `CogBox<Value, Key>`).
    case automatic
    /// A value that arrives from outside the process (`.Async`).
    case async
    /// A registered reaction or watch; it has dependencies but no value.
    case reaction
}

/// Hands out descriptor slots: a dense index so a runtime can find a keyless state with one array
/// access. Declarations are usually file-scope `let`s, which Swift initializes lazily on
/// whichever thread first reads them, so the slots are guarded by a mutex. A declaration made
/// and dropped at run time (a test's, a benchmark's) gives its slot back when it is freed, so a
/// runtime's slot table stays as small as the declarations alive at once, not as every one ever
/// made. Reuse is safe: a runtime's slot entry holds a state, which holds its declaration, so
/// while an entry is filled its declaration, and its slot, are alive.
nonisolated enum DescriptorSlots {
    private static let slots = Mutex(SlotPool())

    private struct SlotPool {
        var next = 0
        var free: [Int] = []
    }

    static func claim() -> Int {
        slots.withLock { pool in
            if let reused = pool.free.popLast() { return reused }
            pool.next += 1
            return pool.next - 1
        }
    }

    static func release(_ slot: Int) {
        slots.withLock { $0.free.append(slot) }
    }
}

/// One declaration: a fixed name and recipe shared by every state it names, in every runtime.
///
/// Descriptors are created by the file-scope `let`s of an app and live for the process; their
/// identity is the object's identity.
///
/// Sendable because it is immutable: every stored property here and in its one subclass,
/// `Descriptor`, is a `let` of a Sendable type (its closures are MainActor-isolated), so a
/// declaration can be made in code of any isolation. The checker cannot see that through a
/// non-final class, hence `@unchecked`.
@usableFromInline
nonisolated class AnyDescriptor: @unchecked Sendable {
    let slot: Int
    let label: String
    let shape: CogShape
    let isKeyed: Bool
    /// The value type's name, for probes. Computed when asked: naming a type at run time takes
    /// a reflection call, which every declaration used to pay when made.
    var valueTypeName: String { "Void" }
    /// Whether a state of this declaration may be released when unused, and its own grace (nil:
    /// the runtime's). Manual sources are `.app` unless declared otherwise; automatic and async
    /// states are released when unused.
    let isReleasable: Bool
    let grace: Duration?

    /// The last `declarationInfo` answer. Naming the value type and the grace takes reflection
    /// (about ten thousand instructions), which a traced runtime paid for every state it made,
    /// and every runtime again; the answer depends only on the runtime's grace.
    private let madeInfo = Mutex<(grace: Duration?, info: CogDeclarationInfo)?>(nil)

    /// What a probe learns about this declaration in a runtime whose grace is `defaultGrace`;
    /// `policy` is its states' async policy (the same for all of them). Made once per
    /// declaration (again only for a runtime of another grace). Nonisolated: it reads only
    /// constants and the lock-guarded answer, and a MainActor function here cost every state a
    /// traced runtime made an executor check.
    func declarationInfo(defaultGrace: Duration, policy: AsyncPolicyKind?) -> CogDeclarationInfo {
        let releasedAfter = isReleasable ? grace ?? defaultGrace : nil
        if let made = madeInfo.withLock({ $0 }), made.grace == releasedAfter, made.info.policy == policy {
            return made.info
        }
        let info = CogDeclarationInfo(
            label: label, shape: shape, valueType: valueTypeName,
            lifetime: releasedAfter.map { "whileObserved(\($0))" } ?? "app", policy: policy)
        madeInfo.withLock { $0 = (releasedAfter, info) }
        return info
    }

    @usableFromInline
    init(
        label: String, shape: CogShape, isKeyed: Bool, isReleasable: Bool = false,
        grace: Duration? = nil
    ) {
        self.isReleasable = isReleasable
        self.grace = grace
        self.slot = DescriptorSlots.claim()
        self.label = label
        self.shape = shape
        self.isKeyed = isKeyed
    }

    deinit {
        DescriptorSlots.release(slot)
    }

    /// Creates the state this descriptor names for `key` in `graph`.
    @MainActor
    func makeNode(id: Int, key: consuming StateKey?) -> Node {
        fatalError("AnyDescriptor.makeNode must be overridden")
    }
}

/// A typed descriptor with the recipe that makes its states.
@usableFromInline
final class Descriptor<Value>: AnyDescriptor, @unchecked Sendable {
    @usableFromInline
    enum Recipe: Sendable {
        /// A source: the closure produces the starting value for one key, once per state.
        case manual(initial: @MainActor (StateKey?) -> Value, lifetime: ManualCogLifetime)
        /// An automatic value: the closure binds the selector to one key, once per state.
        case automatic(bind: @MainActor (StateKey?) -> @MainActor (Reader<Value>) -> Value)
        /// A keyless automatic value: its one state runs the selector itself, so declaring it
        /// makes no binding closure.
        case computed(selector: @MainActor (Reader<Value>) -> Value)
        /// An async value: a default made once per state, a policy, and the selector bound to one key.
        case async(
            makeDefault: @MainActor () -> Value, policy: AsyncPolicyKind,
            bind: @MainActor (StateKey?) -> @MainActor (Reader<Value>) -> WorkBody<Value>)
    }

    @usableFromInline let recipe: Recipe
    @usableFromInline let equality: Equality<Value>
    /// The class of this declaration's automatic states, taken once here, in code specialized
    /// for the client's value type: naming `ComputedNode<Value>` in `makeNode`, which is not,
    /// would look up its generic metadata for every state.
    @usableFromInline let computedNodeClass: ComputedNode<Value>.Type

    override var valueTypeName: String { String(describing: Value.self) }

    @inlinable
    init(label: String, isKeyed: Bool, recipe: Recipe, equality: Equality<Value>) {
        self.recipe = recipe
        self.equality = equality
        computedNodeClass = ComputedNode<Value>.self
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
        case .automatic, .computed: shape = .automatic
        case .async: shape = .async
        }
        super.init(
            label: label, shape: shape, isKeyed: isKeyed,
            isReleasable: isReleasable, grace: grace)
    }

    @MainActor
    override func makeNode(id: Int, key: consuming StateKey?) -> Node {
        switch recipe {
        case .manual(let initial, _):
            return SourceNode<Value>(id: id, descriptor: self, key: key, value: initial(key), equality: equality)
        case .computed(let selector):
            return computedNodeClass.init(id: id, descriptor: self, key: key, compute: selector, equality: equality)
        case .automatic(let bind):
            return computedNodeClass.init(id: id, descriptor: self, key: key, compute: bind(key), equality: equality)
        case .async(let makeDefault, let policy, let bind):
            return AsyncNode<Value>(
                id: id, descriptor: self, key: key, defaultValue: makeDefault(),
                policy: policy, select: bind(key), equality: equality)
        }
    }

    /// Creates a source state holding `value` instead of calling the starting-value closure (seeding).
    @MainActor
    func makeSeededNode(id: Int, key: StateKey?, value: Value) -> Node {
        SourceNode<Value>(id: id, descriptor: self, key: key, value: value, equality: equality)
    }
}

/// Builds the default label of a declaration: its `name:`, else where it is declared.
@usableFromInline
nonisolated func declarationLabel(name: String?, fileID: String, line: Int) -> String {
    name ?? "\(fileID):\(line)"
}
