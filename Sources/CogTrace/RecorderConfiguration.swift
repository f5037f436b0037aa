/// How a `CogRecorder` records.
public struct RecorderConfiguration {
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

    /// A configuration; the defaults keep 10,000 turns with a keyframe every 1,000.
    public init(
        title: String = "untitled", capacity: Int = 10_000, keyframeInterval: Int = 1_000, clock: Clock = .monotonic,
        redactedLabels: [String] = [], maxEventsPerTurn: Int = 100_000
    ) {
        self.title = title
        self.capacity = max(1, capacity)
        self.keyframeInterval = max(1, keyframeInterval)
        self.clock = clock
        self.redactedLabels = redactedLabels
        self.maxEventsPerTurn = max(1, maxEventsPerTurn)
    }
}
