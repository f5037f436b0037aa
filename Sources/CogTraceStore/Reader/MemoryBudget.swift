import CogTraceFormat

/// How much memory a loaded trace may spend on decoded graphs (its keyframes, and the snapshots
/// the reader caches). Past it the reader refuses the file with a clear error rather than let a
/// handful of huge keyframes take the machine's memory.
public struct MemoryBudget: Sendable, Equatable {
    /// A decoded keyframe takes about this many bytes per byte of its JSON record, as measured on
    /// keyframes of tens of megabytes (docs/hardening.md, the limits table).
    public static let decodedBytesPerKeyframeByte = 13

    /// The budget in bytes.
    public let bytes: Int

    /// A budget of `bytes`.
    public init(bytes: Int) {
        self.bytes = max(0, bytes)
    }

    /// A budget of `megabytes` MiB.
    public static func megabytes(_ megabytes: Int) -> MemoryBudget {
        MemoryBudget(bytes: megabytes.multipliedReportingOverflow(by: 1 << 20).overflow ? .max : megabytes << 20)
    }

    /// 4 GiB: far more than any recording the recorder writes needs (its keyframes hold one graph
    /// each), a sixth of this machine kind's memory.
    public static let standard = MemoryBudget.megabytes(4_096)

    /// The environment variable that overrides the budget, in MiB.
    public static let environmentVariable = "COGINSPECT_MEMORY_MB"

    /// Fails when `keyframeBytes` of keyframe records would decode past the budget.
    func check(keyframeBytes: Int, line: Int) throws(TraceReadError) {
        let (decoded, overflow) = keyframeBytes.multipliedReportingOverflow(by: Self.decodedBytesPerKeyframeByte)
        guard overflow || decoded > bytes else { return }
        let needed = overflow ? "more than any machine has" : "about \(decoded >> 20) MiB"
        throw TraceReadError(
            line: line,
            message: "the keyframes up to here need \(needed) decoded, past the \(bytes >> 20) MiB budget; "
                + "set \(Self.environmentVariable) to allow more")
    }
}
