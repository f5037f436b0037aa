/// Why a recorder could not write its trace: the path and the system's reason, e.g.
/// `cannot write '/data/app.cogtrace': No space left on device`.
public struct RecorderFault: Error, CustomStringConvertible, Equatable, Sendable {
    /// The trace file.
    public let path: String
    /// What went wrong, as the system put it (or that the file was removed or replaced).
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot write '\(path)': \(reason)" }
}
