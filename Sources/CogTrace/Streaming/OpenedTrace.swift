import CogTraceFormat
import CogTraceStore
import Foundation

/// A streamed trace's file, open for writing, and its identity when opened, to notice it being
/// removed or replaced later. Package-wide so that `cog-bench` times creating a file the way a
/// stream does.
package struct OpenedTrace: Sendable {
    private let descriptor: Int32
    private let device: UInt64
    private let inode: UInt64

    /// Opens the file at `path`, creating it, or replacing a regular file that holds bytes with
    /// a new empty one (created beside it, then renamed over it). The old file is never emptied
    /// in place: a reader that has it open or mapped (an inspector session on the previous run's
    /// trace) keeps reading what it had rather than faulting past a new end, and ext4 does not
    /// flush a file truncated to nothing when it is closed (its `auto_da_alloc`, which made
    /// closing a stream's file cost a hundred times more; docs/performance.md, "Recorder and
    /// streaming"). A file that is already empty (one made by `mktemp`, say) is kept.
    /// A symbolic link is never written through, and only a regular file, a character device
    /// (`/dev/null` discards a stream) or a FIFO (a reader at its other end) is written: a stream
    /// writes at its path (a crash must leave the trace there), so it refuses what it would
    /// harm rather than replace it.
    package static func open(_ path: String) -> Result<OpenedTrace, RecorderFault> {
        var found = stat()
        if lstat(path, &found) == 0, !writable(found.st_mode) {
            let kind = found.st_mode & S_IFMT
            let reason = kind == S_IFLNK ? linkReason : kind == S_IFDIR ? Self.reason(EISDIR) : notRegularReason
            return .failure(RecorderFault(path: path, reason: reason))
        }
        let descriptor: Int32
        if found.st_mode & S_IFMT == S_IFREG && found.st_size > 0 {
            switch replacingOpen(path) {
            case .success(let made): descriptor = made
            case .failure(let fault): return .failure(fault)
            }
        } else {
            descriptor = Foundation.open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        }
        guard descriptor >= 0 else {
            let code = errno
            return .failure(RecorderFault(path: path, reason: code == ELOOP ? Self.linkReason : Self.reason(code)))
        }
        var status = stat()
        if fstat(descriptor, &status) == 0, !Self.writable(status.st_mode) {
            Foundation.close(descriptor)
            return .failure(RecorderFault(path: path, reason: Self.notRegularReason))
        }
        // A size that cannot be read is taken as something to empty: stale bytes past the end of
        // a trace would be read as its last records.
        let isKnownEmpty = fstat(descriptor, &status) == 0 && status.st_size == 0
        if !isKnownEmpty, ftruncate(descriptor, 0) != 0 {
            let reason = Self.reason(errno)
            Foundation.close(descriptor)
            return .failure(RecorderFault(path: path, reason: reason))
        }
        return .success(
            OpenedTrace(descriptor: descriptor, device: UInt64(status.st_dev), inode: UInt64(status.st_ino)))
    }

    /// A new empty file renamed over the regular file at `path`, open for writing, or why it
    /// could not be made or renamed (nothing at `path` changed then).
    private static func replacingOpen(_ path: String) -> Result<Int32, RecorderFault> {
        let made: (descriptor: Int32, path: String)
        do { made = try SafeFile.createTemporary(beside: path) } catch {
            let text =
                switch error.reason {
                case .diskFull: "the disk is full"
                case .system(let text): text
                default: error.description
                }
            return .failure(RecorderFault(path: path, reason: text))
        }
        guard rename(made.path, path) == 0 else {
            let code = errno
            Foundation.close(made.descriptor)
            unlink(made.path)
            return .failure(RecorderFault(path: path, reason: code == EISDIR ? reason(EISDIR) : reason(code)))
        }
        return .success(made.descriptor)
    }

    /// Why opening `path` for writing would fail, when looking creates nothing and can tell: a
    /// directory there, a file that may not be written, a folder that is missing or may not be
    /// written in. Each look is a system call of a microsecond or two; creating the file costs
    /// far more, so the writer's thread does that.
    static func refusal(toWrite path: String) -> String? {
        var status = stat()
        if lstat(path, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFLNK { return linkReason }
            if status.st_mode & S_IFMT == S_IFDIR { return reason(EISDIR) }
            if !writable(status.st_mode) { return notRegularReason }
            return access(path, W_OK) == 0 ? nil : reason(errno)
        }
        guard errno == ENOENT else { return reason(errno) }
        return access(folder(of: path), W_OK | X_OK) == 0 ? nil : reason(errno)
    }

    /// The folder that holds `path`: what comes before its last slash.
    static func folder(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        if slash == path.utf8.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// Writes every byte, retrying short writes; the system's reason when it cannot.
    func write(_ bytes: borrowing ByteBuffer) -> String? {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return Self.reason(count < 0 ? errno : EIO) }
            written += count
        }
        return nil
    }

    /// Why `path` no longer names this file, if it does not: writes to a removed file succeed
    /// and vanish, so streaming stops rather than pretend.
    func replacedReason(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return "the file was removed while streaming" }
        guard UInt64(status.st_dev) == device, UInt64(status.st_ino) == inode else {
            return "the file was replaced while streaming"
        }
        return nil
    }

    package func close() {
        _ = Foundation.close(descriptor)
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Whether a stream may write to a file of `mode`: a regular file, a character device or a FIFO.
    private static func writable(_ mode: mode_t) -> Bool {
        mode & S_IFMT == S_IFREG || mode & S_IFMT == S_IFCHR || mode & S_IFMT == S_IFIFO
    }

    /// Why a symbolic link is refused.
    static let linkReason = "it is a symbolic link; give the path of a regular file (a link is never written through)"

    /// Why a device, a FIFO or a socket is refused.
    static let notRegularReason = "it is not a regular file; give a file path"
}
