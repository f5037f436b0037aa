/// How a `CogRecorder` records.
public struct RecorderConfiguration {
    /// Where a streamed trace's records are encoded and written.
    public enum StreamWriting: Sendable {
        /// On a thread of their own, a moment after each turn: the app's thread only copies a
        /// turn's kept events and renders the values it alone may look at. A crash (or
        /// `kill -9`) loses what that thread had not written yet, a few milliseconds' worth and
        /// at most 50 ms of a long backlog, since the app's thread waits for it beyond that.
        case background
        /// On the app's thread, before the turn returns: a crash loses at most the turn in
        /// flight, and every turn costs its encoding and a system call.
        case immediate
    }

    /// The clock turn times are read from.
    public enum Clock {
        /// Real elapsed time; recordings differ run to run.
        case monotonic
        /// An injected clock (a `TestClock` in scripted sessions): the same session records the
        /// same bytes.
        case virtual(any _Concurrency.Clock<Duration>)
    }

    /// The trace's title, e.g. the scenario's name.
    public var title: String
    /// How many turns the ring keeps; older ones are evicted (and counted).
    public var capacity: Int
    /// A keyframe is written every this many turns.
    public var keyframeInterval: Int
    /// Where turn times come from.
    public var clock: Clock
    /// Labels whose values are withheld, as patterns where `*` matches any run of characters:
    /// `auth.*`, `*.password`, `user.token[*]`.
    public var redactedLabels: [String]
    /// The most events one turn may hold; further events are dropped and counted.
    public var maxEventsPerTurn: Int
    /// Where a streamed trace is written (`startStreaming(to:)`).
    public var streamWriting: StreamWriting
    /// The CI run the recording belongs to, written in the header (nil: none). A test's
    /// recorder takes it from the environment (`TraceRunMetadata.from(environment:test:)`).
    public var runMetadata: TraceRunMetadata?
    /// The test this runtime belongs to, when a test's capture made the recorder: a streamed
    /// trace names it in its header, so a stream cut short reads as a test that did not end.
    public var testName: String?

    /// A configuration; the defaults keep 10,000 turns with a keyframe every 1,000.
    public init(
        title: String = "untitled", capacity: Int = 10_000, keyframeInterval: Int = 1_000, clock: Clock = .monotonic,
        redactedLabels: [String] = [], maxEventsPerTurn: Int = 100_000, streamWriting: StreamWriting = .background
    ) {
        self.streamWriting = streamWriting
        self.title = title
        self.capacity = max(1, capacity)
        self.keyframeInterval = max(1, keyframeInterval)
        self.clock = clock
        self.redactedLabels = redactedLabels
        self.maxEventsPerTurn = max(1, maxEventsPerTurn)
    }
}
