import Cog
import CogTraceFormat

/// Builds `.cogtrace` text: one JSON record per line, as UTF-8 bytes.
struct TraceLines: ~Copyable {
    private(set) var bytes: ByteBuffer
    /// The declaration's part of the state record written last, and its bytes: a stream's new
    /// states come in declaration order, and a lattice's 4,000 declarations all spell the same
    /// shape, type and lifetime, so a run of them spells it once (5.9M of the 32.5M
    /// instructions its writer spent a run were state records).
    private var lastStateTail: (tail: StateTail, bytes: [UInt8])?

    /// Room for `capacity` bytes before the buffer has to grow (and copy what it holds).
    init(capacity: Int = 1 << 16) {
        bytes = ByteBuffer(capacity: capacity)
    }

    var isEmpty: Bool { bytes.isEmpty }

    /// The lines as text.
    var text: String { bytes.text }

    mutating func append(_ record: JSONValue) {
        record.write(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// The record of the state `info` describes, written from it as it is, without making the
    /// state's label or a `TraceStateInfo` first: byte for byte what `TraceStateInfo(info)`
    /// spells, at a fraction of the instructions (a lattice's writer spent 1,660 a state,
    /// most of them making, comparing and freeing copies of the same strings).
    mutating func append(_ info: CogStateInfo) {
        let declaration = info.declarationInfo
        TraceStateInfo.writeHead(id: info.id.rawValue, declaration: declaration.label, key: info.key, to: &bytes)
        if let last = lastStateTail, last.tail.isSpelled(by: declaration) {
            last.bytes.withUnsafeBufferPointer { bytes.append($0) }
        } else {
            let start = bytes.count
            TraceStateInfo.writeTail(
                shape: declaration.shape.rawValue, valueType: declaration.valueType, lifetime: declaration.lifetime,
                policy: declaration.policy?.rawValue, to: &bytes)
            lastStateTail = (StateTail(declaration), bytes.withUnsafeBytes { Array($0[start...]) })
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    /// A turn's record with `events`, converted by `converter` as they are written.
    mutating func append(_ turn: TraceTurn, events: PortableEvents, convertedBy converter: inout TraceConverter) {
        append(turn, events: events, records: events.records.indices, convertedBy: &converter)
    }

    /// A turn's record with the records of `events` at `records`.
    mutating func append(
        _ turn: TraceTurn, events: PortableEvents, records: Range<Int>, convertedBy converter: inout TraceConverter
    ) {
        converter.write(turn, events: events, records: records, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// The `idle` record of `events`, which happened after turn `sequence`, converted by
    /// `converter` as they are written; nothing when there are none.
    mutating func appendIdle(
        after sequence: Int, events: PortableEvents, convertedBy converter: inout TraceConverter
    ) {
        appendIdle(after: sequence, events: events, records: events.records.indices, convertedBy: &converter)
    }

    /// The `idle` record of the records of `events` at `records`; nothing when there are none.
    mutating func appendIdle(
        after sequence: Int, events: PortableEvents, records: Range<Int>, convertedBy converter: inout TraceConverter
    ) {
        guard !records.isEmpty else { return }
        converter.writeIdle(after: sequence, events: events, records: records, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// What comes before a record's events when they were written elsewhere: the record
    /// `write` makes with no events, less its closing `]}`.
    mutating func appendOpening(_ write: (inout ByteBuffer) -> Void) {
        write(&bytes)
        assert(bytes.last == UInt8(ascii: "}"), "a record with no events ends in ]}")
        bytes.removeLast(2)
    }

    /// Events written elsewhere, after `appendOpening`.
    mutating func appendEvents(_ elements: borrowing ByteBuffer) {
        elements.withUnsafeBytes { bytes.append($0) }
    }

    /// What ends a record begun with `appendOpening`, and its line.
    mutating func appendClosing() {
        bytes.append("]}\n")
    }

    /// Makes room for `capacity` bytes in all, at once, when there is less.
    mutating func reserveCapacity(_ capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func removeAll() {
        bytes.removeAll()
    }
}

/// What a state record's tail spells, from its declaration: kept as copies, so no declaration is
/// held past the record, and compared field by field, since each declaration has an object of
/// its own however alike they read.
private struct StateTail {
    let shape: CogShape
    let valueType: String
    let lifetime: String
    let policy: AsyncPolicyKind?

    init(_ declaration: CogDeclarationInfo) {
        shape = declaration.shape
        valueType = declaration.valueType
        lifetime = declaration.lifetime
        policy = declaration.policy
    }

    /// Whether `declaration`'s states spell this tail.
    func isSpelled(by declaration: CogDeclarationInfo) -> Bool {
        shape == declaration.shape && policy == declaration.policy && valueType == declaration.valueType
            && lifetime == declaration.lifetime
    }
}
