/// The first record of every trace: what it is and how it was recorded.
public struct TraceHeader: Equatable {
    /// The format's name, always `cogtrace`.
    public var format = "cogtrace"
    /// The format version this file was written in, `major.minor`.
    public var version = TraceFormat.version
    /// The oldest reader version that can read it.
    public var minimumReaderVersion = TraceFormat.minimumReaderVersion
    /// What wrote it.
    public var producer = "CogTrace \(TraceFormat.version)"
    /// An identifier for the recorded run (derived from the title under a virtual clock).
    public var runID: String
    /// A human title, e.g. the scenario's name.
    public var title: String
    /// `virtual` (deterministic) or `monotonic`.
    public var clock: String
    /// `ring` or `stream`.
    public var mode: String
    /// How many turns the ring keeps.
    public var capacity: Int
    /// A keyframe is written every this many turns.
    public var keyframeInterval: Int
    /// The process streaming it (stream mode only), for a follower to notice its death.
    public var writer: TraceWriterProcess?
    /// The CI run that made it, when one did (the `ci` member; absent otherwise).
    public var ci: TraceRunMetadata?
    /// The test whose runtime is being recorded, in a trace streamed while a test runs (the
    /// `test` member): a stream that stops without its trailer then reads as a test the process
    /// died in. Absent otherwise.
    public var test: String?

    public init(runID: String, title: String, clock: String, mode: String, capacity: Int, keyframeInterval: Int) {
        self.runID = runID
        self.title = title
        self.clock = clock
        self.mode = mode
        self.capacity = capacity
        self.keyframeInterval = keyframeInterval
    }
}

/// The version numbers of the format this package writes and reads.
public enum TraceFormat {
    /// What this package writes.
    public static let version = "1.1"
    /// The oldest reader that can read what this package writes.
    public static let minimumReaderVersion = "1.0"
    /// The major version this reader understands; a newer major is refused.
    public static let readerMajor = 1
    /// Every count, version, sequence number and time in a trace lies in this range, so sums of a
    /// file's numbers cannot overflow and JSON consumers can hold them exactly as doubles.
    public static let countRange = 0..<(1 << 53)
}

/// A state as the trace names it: its id, label and declaration, written when first seen.
public struct TraceStateInfo: Equatable, Sendable {
    public let id: NodeID
    /// `weather.isNice[10001]`.
    public let label: String
    /// `weather.isNice`.
    public let declaration: String
    /// `10001`, for a keyed state.
    public let key: String?
    /// `manual`, `automatic` or `async`.
    public let shape: StateShape
    public let valueType: String
    /// `app` or `whileObserved(…)`.
    public let lifetime: StateLifetime
    /// The async policy, for an async state.
    public let policy: AsyncPolicyName?

    public init(
        id: NodeID, label: String, declaration: String, key: String?, shape: StateShape, valueType: String,
        lifetime: StateLifetime, policy: AsyncPolicyName?
    ) {
        self.id = id
        self.label = label
        self.declaration = declaration
        self.key = key
        self.shape = shape
        self.valueType = valueType
        self.lifetime = lifetime
        self.policy = policy
    }
}

/// One completed turn: its name, why it ran, the turn that caused it, when, and what happened.
public struct TraceTurn: Equatable {
    /// The turn's number in the runtime, from 1.
    public let sequence: TurnNumber
    public let name: String
    /// `op`, `reactionWriteBack`, `asyncCompletion`, `discard`, `graceExpiry` or `assembly`.
    public let origin: TurnOrigin
    public let cause: TurnNumber?
    /// Microseconds since recording began, on the recording clock.
    public let start: Int
    public let duration: Int
    public var events: [TraceEvent]
    /// What happened after the turn and before the next one (reads that computed, states
    /// created by a peek, leases renewed, late results rejected).
    public var after: [TraceEvent]

    public init(
        sequence: TurnNumber, name: String, origin: TurnOrigin, cause: TurnNumber?, start: Int, duration: Int,
        events: [TraceEvent], after: [TraceEvent] = []
    ) {
        self.sequence = sequence
        self.name = name
        self.origin = origin
        self.cause = cause
        self.start = start
        self.duration = duration
        self.events = events
        self.after = after
    }
}

/// The last record: whether the recorder finished, and what it counted.
public struct TraceTrailer: Equatable {
    /// True when the recorder finished cleanly.
    public var ok: Bool
    /// Turns recorded in all, including evicted ones.
    public var turns: Int
    /// Turns the ring evicted before the file was written.
    public var evicted: Int
    /// Events dropped because a turn exceeded its event budget.
    public var dropped: Int
    /// Keyframes in the file.
    public var keyframes: Int

    public init(ok: Bool, turns: Int, evicted: Int, dropped: Int, keyframes: Int) {
        self.ok = ok
        self.turns = turns
        self.evicted = evicted
        self.dropped = dropped
        self.keyframes = keyframes
    }
}

/// A turn's name, origin and cause: what naming a turn in an answer needs, read without its
/// events.
package struct TurnHeading: Equatable, Sendable {
    package let name: String
    package let origin: TurnOrigin
    package let cause: TurnNumber?

    package init(name: String, origin: TurnOrigin, cause: TurnNumber?) {
        self.name = name
        self.origin = origin
        self.cause = cause
    }
}
