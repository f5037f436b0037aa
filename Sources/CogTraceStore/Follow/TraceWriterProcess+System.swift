public import CogTraceFormat
import Foundation

/// What the system says of a trace's writer: this process as a header names it, and whether a
/// named writer has ended.
extension TraceWriterProcess {
    /// This process.
    public static var current: TraceWriterProcess {
        let pid = Int(getpid())
        return TraceWriterProcess(pid: pid, started: startTime(of: pid) ?? 0, host: hostName)
    }

    /// Whether the writer is known to have ended: this machine has no process with its id, or
    /// the one it has started at another time. False when it cannot tell (another machine).
    public var hasEnded: Bool {
        guard host == Self.hostName, pid > 0, let pidRange = Int32(exactly: pid) else { return false }
        if kill(pidRange, 0) != 0, errno == ESRCH { return true }
        guard let status = Self.status(of: pid) else { return false }
        // A zombie (killed, not yet reaped by its parent) writes no more.
        if status.state == "Z" || status.state == "X" { return true }
        return started > 0 && status.started != started
    }

    package static var hostName: String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A process's start time from `/proc/PID/stat`.
    static func startTime(of pid: Int) -> Int? { status(of: pid)?.started }

    /// A process's state letter and start time from `/proc/PID/stat`: fields 3 and 22, counted
    /// after the command name's closing parenthesis (a name may hold spaces and parentheses).
    static func status(of pid: Int) -> (state: Character, started: Int)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name come field 3 (state) onward, so field 22 is the 20th here.
        guard fields.count >= 20, let state = fields[0].first, let started = Int(fields[19]) else { return nil }
        return (state, started)
    }
}
