import Cog

/// The probe events of one turn (or of the time between turns), kept in chunks of at most
/// `chunkCapacity` events. A growing array copies everything it holds each time it doubles and,
/// once large, takes fresh pages from the system; chunks stay small enough for the allocator to
/// reuse, and appending never moves what is already kept. A small turn's events live in the
/// first chunk alone, one allocation like a plain array.
struct EventBuffer: Sequence {
    /// Events per chunk: 512 events of 96 bytes stay under glibc's 128 KiB mmap threshold.
    static let chunkCapacity = 512

    private var head: [CogProbeEvent] = []
    private var rest: [[CogProbeEvent]] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// An empty buffer with room for `capacity` events in its first chunk (at most a chunk's worth).
    init(reservingCapacity capacity: Int = 0) {
        if capacity > 0 { head.reserveCapacity(Swift.min(capacity, Self.chunkCapacity)) }
    }

    mutating func append(_ event: consuming CogProbeEvent) {
        if rest.isEmpty, head.count < Self.chunkCapacity {
            head.append(event)
        } else {
            if rest.isEmpty || rest[rest.count - 1].count == Self.chunkCapacity {
                var chunk: [CogProbeEvent] = []
                chunk.reserveCapacity(Self.chunkCapacity)
                rest.append(chunk)
            }
            rest[rest.count - 1].append(event)
        }
        count += 1
    }

    /// Moves every event of `other` to the end of this buffer, leaving `other` empty: a swap when
    /// this one is empty, and otherwise whole chunks handed over.
    mutating func take(_ other: inout EventBuffer) {
        guard !other.isEmpty else { return }
        if isEmpty {
            swap(&self, &other)
            return
        }
        rest.append(other.head)
        rest.append(contentsOf: other.rest)
        count += other.count
        other = EventBuffer()
    }

    func makeIterator() -> FlattenSequence<[[CogProbeEvent]]>.Iterator {
        ([head] + rest).joined().makeIterator()
    }
}
