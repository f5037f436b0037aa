import Foundation

/// The standard library's unordered collections, whose encoding lists elements in the order the
/// process's hash seed gives them: a `Set`, and a `Dictionary` whose keys are not strings or
/// integers (those encode as an object, whose members the encoder sorts).
protocol UnorderedCollection {
    /// Whether the encoding alternates keys and values (`[k0, v0, k1, v1]`) rather than listing
    /// elements.
    static var encodesPairs: Bool { get }
}

extension Set: UnorderedCollection {
    static var encodesPairs: Bool { false }
}

extension Dictionary: UnorderedCollection {
    static var encodesPairs: Bool { true }
}

/// Where a value's encoding holds unordered collections, found by an encoder that writes nothing
/// and follows the same coding paths as `JSONEncoder` (a keyed member by its key, an element by
/// its position, a superclass under `super`).
struct UnorderedCollectionFinder {
    /// One step of a path into the encoded JSON.
    enum Step: Equatable {
        case member(String)
        case element(Int)
    }

    /// A collection's place and whether its encoding is pairs.
    struct Found {
        var path: [Step]
        var pairs: Bool
    }

    /// Every unordered collection in `value`'s encoding, outermost first; empty when encoding
    /// it fails (the caller then has no JSON either).
    static func find(in value: any Encodable) -> [Found] {
        let found = FoundList()
        try? FindingEncoder(path: [], found: found).visit(value)
        return found.items
    }
}

/// The list an encoding's walk adds to. A class because every container of one walk shares it;
/// a walk runs on one thread and the list never leaves it.
private final class FoundList {
    var items: [UnorderedCollectionFinder.Found] = []
}

/// An encoder that records where unordered collections are and descends into everything else
/// that is not a leaf.
private struct FindingEncoder: Encoder {
    let path: [UnorderedCollectionFinder.Step]
    let found: FoundList

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Notes `value` if it is unordered, then walks its own encoding unless it is a leaf that
    /// `JSONEncoder` writes as one JSON value.
    func visit(_ value: any Encodable) throws {
        if let unordered = value as? any UnorderedCollection {
            found.items.append(.init(path: path, pairs: type(of: unordered).encodesPairs))
        }
        if Self.isLeaf(value) { return }
        try value.encode(to: self)
    }

    /// Types that encode as one JSON value (numbers, strings, Booleans), or that `JSONEncoder`
    /// writes itself rather than through their `encode(to:)` (dates, data, URLs, decimals).
    private static func isLeaf(_ value: any Encodable) -> Bool {
        switch value {
        case is String, is Bool, is Int, is Double, is Float, is Int8, is Int16, is Int32, is Int64, is UInt,
            is UInt8, is UInt16, is UInt32, is UInt64:
            true
        default: value is Date || value is Data || value is URL || value is Decimal
        }
    }

    func at(_ step: UnorderedCollectionFinder.Step) -> FindingEncoder {
        FindingEncoder(path: path + [step], found: found)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedFinder<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { UnkeyedFinder(encoder: self) }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleFinder(encoder: self) }
}

private struct KeyedFinder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: FindingEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {}

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.at(.member(key.stringValue)).visit(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder.at(.member(key.stringValue)).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.at(.member(key.stringValue)).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { encoder.at(.member("super")) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.at(.member(key.stringValue)) }
}

private struct UnkeyedFinder: UnkeyedEncodingContainer {
    let encoder: FindingEncoder
    var codingPath: [any CodingKey] { [] }
    var count = 0

    init(encoder: FindingEncoder) {
        self.encoder = encoder
    }

    /// The next element's encoder, its position taken.
    private mutating func next() -> FindingEncoder {
        defer { count += 1 }
        return encoder.at(.element(count))
    }

    mutating func encodeNil() throws { count += 1 }

    mutating func encode<T: Encodable>(_ value: T) throws { try next().visit(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    )
        -> KeyedEncodingContainer<NestedKey>
    {
        next().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { next().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder { next() }
}

private struct SingleFinder: SingleValueEncodingContainer {
    let encoder: FindingEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws {}

    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.visit(value) }
}

extension JSONValue {
    /// This value with the unordered collections `found` in it put in one order: a set's
    /// elements, and a dictionary's key/value pairs by key, sorted by their compact JSON text
    /// (inner collections first, so an element is sorted by its own canonical text). Two
    /// processes with different hash seeds then write the same JSON for equal values.
    func canonical(_ found: [UnorderedCollectionFinder.Found]) -> JSONValue {
        var result = self
        for collection in found.sorted(by: { $0.path.count > $1.path.count }) {
            result.modify(at: collection.path[...]) { value in
                guard case .array(let elements) = value, elements.count > 1 else { return }
                if collection.pairs {
                    guard elements.count % 2 == 0 else { return }
                    let pairs = stride(from: 0, to: elements.count, by: 2).map { (elements[$0], elements[$0 + 1]) }
                    let sorted = pairs.map { ($0.0.jsonText, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
                    value = .array(sorted.flatMap { [$0.0, $0.1] })
                } else {
                    value = .array(elements.map { ($0.jsonText, $0) }.sorted { $0.0 < $1.0 }.map(\.1))
                }
            }
        }
        return result
    }

    /// Whether the value holds an array of two or more elements anywhere: only then can it hold
    /// an unordered collection whose order matters.
    var holdsSeveralElements: Bool {
        switch self {
        case .array(let elements): elements.count > 1 || elements.contains { $0.holdsSeveralElements }
        case .object(let members): members.contains { $0.1.holdsSeveralElements }
        default: false
        }
    }

    /// Applies `change` to the value at `path`, if the path leads somewhere.
    private mutating func modify(
        at path: ArraySlice<UnorderedCollectionFinder.Step>, _ change: (inout JSONValue) -> Void
    ) {
        guard let step = path.first else { return change(&self) }
        switch (step, self) {
        case (.element(let index), .array(var elements)) where elements.indices.contains(index):
            self = .null
            elements[index].modify(at: path.dropFirst(), change)
            self = .array(elements)
        case (.member(let key), .object(var members)):
            guard let position = members.firstIndex(where: { $0.0 == key }) else { return }
            self = .null
            members[position].1.modify(at: path.dropFirst(), change)
            self = .object(members)
        default: return
        }
    }
}
