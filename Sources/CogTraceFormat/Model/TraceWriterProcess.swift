/// The process streaming a trace, as its header names it: enough for a follower on the same
/// machine to tell that the writer died (a crash, `kill -9`) without writing its trailer, and
/// not to mistake a later process that got the same id for it. Asking the system about it is
/// the store's job (`TraceWriterProcess+System.swift` in CogTraceStore).
public struct TraceWriterProcess: Equatable, Sendable {
    /// The writer's process id.
    public var pid: Int
    /// When the process started, in the system's clock ticks since boot (`/proc/PID/stat`,
    /// field 22); 0 where the system does not say.
    public var started: Int
    /// The machine's host name: a pid means nothing on another machine.
    public var host: String

    public init(pid: Int, started: Int, host: String) {
        self.pid = pid
        self.started = started
        self.host = host
    }
}
