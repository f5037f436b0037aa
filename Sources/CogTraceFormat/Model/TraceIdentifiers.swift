/// A state's or a registration's id in a trace. States and registrations (reactions, watches,
/// scopes, tasks) share one dense id space, so an id names exactly one of either; as its own
/// type it cannot be mixed up with a turn number, a version or a count.
public struct NodeID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
{
    /// The number the trace file writes.
    public let rawValue: Int

    /// The id written `rawValue` in a trace.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The id written `rawValue` in a trace.
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// An id written as a literal, as tests and examples do.
    public init(integerLiteral value: Int) { rawValue = value }

    public static func < (lhs: NodeID, rhs: NodeID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Hashes as its number does.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// Its number's hash, taken in one step. Without this a dictionary keyed by ids (the graph
    /// snapshot's states, every index the inspector keeps) builds, feeds and finalizes a whole
    /// `Hasher` for every lookup, a sixth of the stream writer's instructions; `Int` takes the
    /// same seeded hash through this one-step path. It is the standard library's own
    /// customization point of `Hashable`, underscored but public.
    public func _rawHashValue(seed: Int) -> Int { rawValue._rawHashValue(seed: seed) }

    /// The number, as the trace file writes it.
    public var description: String { String(rawValue) }
}

/// A turn's sequence number: turns count up from 1 in the order they ran. Its own type keeps
/// it apart from ids and counts; it steps like an integer, so `first...last` is a range of turns.
public struct TurnNumber: RawRepresentable, Hashable, Comparable, Strideable, Sendable,
    CustomStringConvertible, ExpressibleByIntegerLiteral
{
    /// The number the trace file writes.
    public let rawValue: Int

    /// Turn `rawValue`.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Turn `rawValue`.
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// A turn written as a literal, as tests and examples do.
    public init(integerLiteral value: Int) { rawValue = value }

    public static func < (lhs: TurnNumber, rhs: TurnNumber) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Compares the numbers themselves: `Strideable`'s own `==` measures the distance between
    /// them, which overflows for turns far apart (a typed `turn -9223372036854775808` trapped).
    public static func == (lhs: TurnNumber, rhs: TurnNumber) -> Bool { lhs.rawValue == rhs.rawValue }

    /// Hashes as its number does.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// Its number's hash in one step, as `NodeID` takes it.
    public func _rawHashValue(seed: Int) -> Int { rawValue._rawHashValue(seed: seed) }

    /// How many turns lie from this one to `other`.
    public func distance(to other: TurnNumber) -> Int { other.rawValue - rawValue }

    /// The turn `count` turns later (earlier when negative).
    public func advanced(by count: Int) -> TurnNumber { TurnNumber(rawValue + count) }

    /// The turn `count` turns later.
    public static func + (turn: TurnNumber, count: Int) -> TurnNumber { turn.advanced(by: count) }

    /// The turn `count` turns earlier.
    public static func - (turn: TurnNumber, count: Int) -> TurnNumber { turn.advanced(by: -count) }

    /// The number, as the trace file writes it.
    public var description: String { String(rawValue) }
}

extension JSONValue {
    /// An id as the number the trace file writes.
    package static func int(_ id: NodeID) -> JSONValue { .int(id.rawValue) }

    /// A turn as the number the trace file writes.
    package static func int(_ turn: TurnNumber) -> JSONValue { .int(turn.rawValue) }

    /// The member as an id, when it is a whole number in the documented range (0 ..< 2^53).
    package var nodeID: NodeID? {
        intValue.flatMap { TraceFormat.countRange.contains($0) ? NodeID($0) : nil }
    }

    /// The member as a list of ids: nil when it is not an array, or when any element is not an
    /// id in range (one bad element is not silently left out).
    package var nodeIDs: [NodeID]? {
        guard let elements = arrayValue else { return nil }
        var ids: [NodeID] = []
        ids.reserveCapacity(elements.count)
        for element in elements {
            guard let id = element.nodeID else { return nil }
            ids.append(id)
        }
        return ids
    }

    /// The member as a turn number, when it is a whole number.
    package var turnNumber: TurnNumber? { intValue.map { TurnNumber($0) } }
}
