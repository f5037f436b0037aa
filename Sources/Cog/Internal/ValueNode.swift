/// A node that holds a value of one type.
@usableFromInline
class ValueNode<Value>: Node {
    /// The value, initialized once `hasValue` is true (an automatic state has none before its
    /// first run). A pointer rather than an optional so the unspecialized runtime never builds
    /// `Optional<Value>` metadata on the hot path.
    ///
    /// `nonisolated(unsafe)` only so the nonisolated deinit can free it: every other access is on
    /// the MainActor, and a deinit runs when no other reference to the node exists.
    @usableFromInline nonisolated(unsafe) final let storage: UnsafeMutablePointer<Value>
    @usableFromInline @exclusivity(unchecked) final var hasValue: Bool
    /// Where the value staged by the turn in progress is kept, allocated by a state's first
    /// write (automatic states are never written); initialized while `hasStagedValue`. A
    /// pointer, like `storage`, so creating and freeing a state builds no `Optional<Value>`.
    /// `nonisolated(unsafe)` for the reason `storage` is: only the deinit reads it off the
    /// MainActor, when nothing else can reach the node.
    @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) final var stagedSlot: UnsafeMutablePointer<Value>?
    /// Whether the turn in progress staged a value for this state.
    @usableFromInline @exclusivity(unchecked) final var hasStagedValue = false
    /// The declaration's rule and its `==`, as the declaration holds them (`Equality`): a closure
    /// made from them would cost every state an allocation.
    let equalityRule: ((Value, Value) -> Bool)?
    let equalityComparison: (any ValueComparison.Type)?

    /// A state holding `value` from the start.
    init(
        id: Int, descriptor: AnyDescriptor, key: consuming StateKey?, value: Value, equality: Equality<Value>,
        mark: SettleMark
    ) {
        storage = ValueSlot.allocate(Value.self)
        storage.initialize(to: value)
        hasValue = true
        equalityRule = equality.rule
        equalityComparison = equality.comparison
        super.init(id: id, descriptor: descriptor, key: key, mark: mark)
    }

    /// A state with no value until its first run. Apart from the valued one, so neither takes
    /// an `Optional<Value>`, whose metadata unspecialized code would look up per state.
    init(id: Int, descriptor: AnyDescriptor, key: consuming StateKey?, equality: Equality<Value>, mark: SettleMark) {
        storage = ValueSlot.allocate(Value.self)
        hasValue = false
        equalityRule = equality.rule
        equalityComparison = equality.comparison
        super.init(id: id, descriptor: descriptor, key: key, mark: mark)
    }

    /// Nonisolated: a node is created, used and released on the MainActor, and by the time its
    /// deinit runs nothing else can reach it, so freeing its storage needs no hop.
    nonisolated deinit {
        if hasValue { storage.deinitialize(count: 1) }
        ValueSlot.deallocate(storage)
        if let stagedSlot {
            if hasStagedValue { stagedSlot.deinitialize(count: 1) }
            ValueSlot.deallocate(stagedSlot)
        }
    }

    /// Stages `value` for the turn in progress, replacing one staged before.
    @inlinable
    final func stage(_ value: Value) {
        let slot = stagedSlot ?? ValueSlot.allocate(Value.self)
        stagedSlot = slot
        ValueSlot.put(value, in: slot, isInitialized: &hasStagedValue)
    }

    /// Replaces (or first sets) the value.
    final func store(_ new: Value) {
        ValueSlot.put(new, in: storage, isInitialized: &hasValue)
    }

    /// Whether `new` differs from `old`: the declaration's equality, or always for non-equatable values.
    final func differs(_ old: Value, _ new: Value) -> Bool {
        if let equalityComparison { return !areEqual(old, new, by: equalityComparison) }
        guard let equalityRule else { return true }
        return !equalityRule(old, new)
    }

    override var anyValue: Any? { hasValue ? storage.pointee as Any : nil }

    override func reportCreated(to probe: any CogProbe, as info: CogStateInfo) {
        probe.recordStateCreated(info, value: hasValue ? UnsafePointer(storage) : nil)
    }

    override func recomputeReporting(to probe: any CogProbe, in graph: Graph, trigger: CogStateID?) {
        guard hasValue else {
            let changed = graph.runOnce(self)
            guard hasValue else {
                probe.record(.recompute(state: CogStateID(id), old: nil, new: nil, changed: changed, trigger: trigger))
                return
            }
            probe.recordFirstRun(state: CogStateID(id), value: storage, trigger: trigger)
            return
        }
        let old = storage.pointee
        let changed = graph.runOnce(self)
        let id = CogStateID(id)
        lendPointer(to: old) { old in
            probe.recordRecompute(state: id, old: old, new: storage, changed: changed, trigger: trigger)
        }
    }

    /// Commits the value staged in the finishing turn: a real change bumps the version, an equal
    /// value is discarded.
    override func commitStaged(in graph: Graph) -> CommitResult {
        isStaged = false
        guard hasStagedValue, let stagedSlot else { return .unchanged }
        let new = stagedSlot.move()
        hasStagedValue = false
        let old = storage.pointee
        guard differs(old, new) else {
            graph.probe?.record(.writeDiscarded(state: CogStateID(id), value: new))
            return .unchanged
        }
        storage.pointee = new
        version += 1
        statusVersion += 1
        if let probe = graph.probe {
            let id = CogStateID(id)
            lendPointer(to: old) { old in probe.recordWrite(state: id, old: old, new: storage) }
        }
        return .value
    }
}

/// A writable source; its mark is always clean.
@usableFromInline
final class SourceNode<Value>: ValueNode<Value> {
    /// Nonisolated like its base's: a state is freed where its last reference goes, and an
    /// isolated deinit would check the executor for every state a runtime drops.
    nonisolated deinit {}

    init(id: Int, descriptor: AnyDescriptor, key: consuming StateKey?, value: Value, equality: Equality<Value>) {
        super.init(id: id, descriptor: descriptor, key: key, value: value, equality: equality, mark: .clean)
    }

    /// Replaces the value outside any turn (seeding); returns whether it changed.
    func seed(_ new: Value) -> Bool {
        guard differs(storage.pointee, new) else { return false }
        storage.pointee = new
        version += 1
        return true
    }
}

/// A cached automatic value; starts dirty so the first read computes it.
@usableFromInline
final class ComputedNode<Value>: ValueNode<Value> {
    /// Nonisolated for the reason `SourceNode`'s is.
    nonisolated deinit {}

    let compute: (Reader<Value>) -> Value

    init(
        id: Int, descriptor: AnyDescriptor, key: consuming StateKey?, compute: @escaping (Reader<Value>) -> Value,
        equality: Equality<Value>
    ) {
        self.compute = compute
        super.init(id: id, descriptor: descriptor, key: key, equality: equality, mark: .dirty)
    }

    override func run(in graph: Graph) -> Bool {
        let new = compute(Reader(graph: graph, consumer: self))
        guard hasValue else {
            storage.initialize(to: new)
            hasValue = true
            return true
        }
        let changed = differs(storage.pointee, new)
        storage.pointee = new
        return changed
    }
}

/// Lends `body` a pointer to `value` for the duration of the call. Nonisolated on purpose: a
/// MainActor closure handed straight to the standard library's `withUnsafePointer` checks its
/// executor every time it runs, which on a probe's hot path costs more than the report.
nonisolated func lendPointer<Value>(to value: borrowing Value, _ body: (UnsafePointer<Value>) -> Void) {
    withUnsafePointer(to: value) { body($0) }
}
