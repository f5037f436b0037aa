/// Values by node id, found without hashing: the runtime hands out ids counting up from 1, so
/// an id indexes an array of positions straight away. Ids outside that array's reach (negative
/// ones, or ids far beyond how many values the table holds, as a hand-edited trace may have)
/// go to a dictionary instead, so no id can make the table allocate more than a few times its
/// size.
///
/// It reads like the dictionary it replaced (`table[id]`, `keys`, `values`, `count`, iteration
/// as `(key, value)` pairs), but iterates in no particular order, as a dictionary does; a
/// caller that needs one sorts. Keeping a graph snapshot spent a quarter of a stream writer's
/// instructions hashing ids into `[NodeID: State]`.
public struct NodeTable<Value> {
    /// The ids and values held, at the same positions, in no particular order.
    @inlinable
    public var keys: [NodeID] { ids }
    /// The ids, stored: `keys` reads them, and the table's inlinable changes write them.
    @usableFromInline var ids: [NodeID] = []
    /// The values, at the positions of their ids in `keys`.
    @usableFromInline var slots: ContiguousArray<Value> = []
    /// For an id `i` in `0..<positions.count`: its position plus one, or 0 when it is absent.
    @usableFromInline var positions: ContiguousArray<UInt32> = []
    /// Positions of the ids `positions` does not reach.
    @usableFromInline var farPositions: [NodeID: Int] = [:]

    /// An empty table.
    public init() {}

    /// How many values the table holds.
    @inlinable
    public var count: Int { slots.count }

    /// Whether the table holds no value.
    @inlinable
    public var isEmpty: Bool { slots.isEmpty }

    /// The values held, in the order of `keys`.
    public var values: [Value] { Array(slots) }

    /// The value for `id`, or nil; setting nil removes it.
    @inlinable
    public subscript(id: NodeID) -> Value? {
        get { position(of: id).map { slots[$0] } }
        set {
            if let position = position(of: id) {
                if let newValue { slots[position] = newValue } else { remove(at: position) }
            } else if let newValue {
                insert(newValue, for: id)
            }
        }
        // A value that is there is lent out as a copy and put back: the busy paths (a write, a
        // run, a dependency list) go through `update(at:_:)`, which changes it where it lies.
        _modify {
            if let position = position(of: id) {
                var lent: Value? = slots[position]
                yield &lent
                if let lent { slots[position] = lent } else { remove(at: position) }
            } else {
                var added: Value?
                yield &added
                if let added { insert(added, for: id) }
            }
        }
    }

    /// Removes and returns the value for `id`, if there is one.
    @discardableResult
    @inlinable
    public mutating func removeValue(forKey id: NodeID) -> Value? {
        guard let position = position(of: id) else { return nil }
        let value = slots[position]
        remove(at: position)
        return value
    }

    /// Where `id`'s value is held, for `update(at:_:)`.
    @inlinable
    package func position(of id: NodeID) -> Int? {
        let raw = id.rawValue
        if raw >= 0, raw < positions.count {
            let stored = positions[raw]
            return stored == 0 ? nil : Int(stored) - 1
        }
        return farPositions.isEmpty ? nil : farPositions[id]
    }

    /// Runs `body` on the value at `position`, where it is stored, without copying it out.
    @inlinable @inline(__always)
    package mutating func update<Result>(at position: Int, _ body: (inout Value) -> Result) -> Result {
        body(&slots[position])
    }

    /// Reads the value at `position` in place.
    @inlinable @inline(__always)
    package func read<Result>(at position: Int, _ body: (borrowing Value) -> Result) -> Result {
        body(slots[position])
    }

    /// Sets the value for `id`, moving `value` in: the subscript's setter without the optional
    /// it wraps a value in first (a snapshot's state is big enough for the copies to show).
    @inlinable
    package mutating func set(_ value: consuming Value, for id: NodeID) {
        if let position = position(of: id) { slots[position] = value } else { insert(value, for: id) }
    }

    @inlinable mutating func insert(_ value: consuming Value, for id: NodeID) {
        let position = slots.count
        slots.append(value)
        ids.append(id)
        let raw = id.rawValue
        if raw >= 0, raw < positions.count {
            positions[raw] = UInt32(position + 1)
        } else if raw >= 0, raw < reach {
            extendPositions(toReach: raw)
            positions[raw] = UInt32(position + 1)
        } else {
            farPositions[id] = position
        }
    }

    /// How far `positions` may reach for the values held: a few times their number, so ids
    /// handed out in order are all near, and no id makes the array outgrow the table.
    @usableFromInline var reach: Int { 1_024 + 4 * slots.count }

    /// Grows `positions` to cover `raw`, bringing in the far ids it now covers.
    @usableFromInline mutating func extendPositions(toReach raw: Int) {
        let newCount = Swift.min(reach, Swift.max(raw + 1, positions.count * 2))
        positions.append(contentsOf: repeatElement(0, count: newCount - positions.count))
        for (id, position) in farPositions where id.rawValue >= 0 && id.rawValue < newCount {
            positions[id.rawValue] = UInt32(position + 1)
            farPositions[id] = nil
        }
    }

    /// Removes the value at `position`, moving the last value into its place.
    @inlinable mutating func remove(at position: Int) {
        forget(ids[position])
        let last = slots.count - 1
        if position != last {
            slots.swapAt(position, last)
            ids.swapAt(position, last)
            record(ids[position], at: position)
        }
        slots.removeLast()
        ids.removeLast()
    }

    @inlinable mutating func forget(_ id: NodeID) {
        let raw = id.rawValue
        if raw >= 0, raw < positions.count { positions[raw] = 0 } else { farPositions[id] = nil }
    }

    @inlinable mutating func record(_ id: NodeID, at position: Int) {
        let raw = id.rawValue
        if raw >= 0, raw < positions.count {
            positions[raw] = UInt32(position + 1)
        } else {
            farPositions[id] = position
        }
    }
}

extension NodeTable: Sequence {
    /// Iterates `(key, value)` pairs, in the order of `keys`.
    public struct Iterator: IteratorProtocol {
        fileprivate let table: NodeTable
        fileprivate var position = 0

        public mutating func next() -> (key: NodeID, value: Value)? {
            guard position < table.slots.count else { return nil }
            defer { position += 1 }
            return (table.keys[position], table.slots[position])
        }
    }

    public func makeIterator() -> Iterator { Iterator(table: self) }

    public var underestimatedCount: Int { count }
}

extension NodeTable: ExpressibleByDictionaryLiteral {
    /// A table of the literal's pairs; a repeated id keeps its last value.
    public init(dictionaryLiteral elements: (NodeID, Value)...) {
        for (id, value) in elements { self[id] = value }
    }
}

extension NodeTable: Equatable where Value: Equatable {
    /// Whether both hold the same values for the same ids, in whatever order.
    public static func == (lhs: NodeTable, rhs: NodeTable) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (id, value) in lhs {
            guard let position = rhs.position(of: id), rhs.slots[position] == value else { return false }
        }
        return true
    }
}

extension NodeTable: Sendable where Value: Sendable {}
