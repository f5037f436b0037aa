import CogTraceFormat
import Dispatch
import Foundation
import Synchronization

/// Records ready to be written: JSON lines, then a turn whose values are all settled.
///
/// Sendable by hand: it holds only strings, numbers and JSON values. The one way in for a turn
/// is `init`, which settles its values (`TraceTurn.settlingValues`) on the caller's thread, the
/// app's, so the writer's thread never touches a value of the app's.
struct SettledRecords: @unchecked Sendable {
    var lines: [JSONValue] = []
    private(set) var turn: TraceTurn?

    /// `lines`, then `turn` with its values settled now.
    init(lines: [JSONValue] = [], settling turn: TraceTurn? = nil) {
        self.lines = lines
        self.turn = turn?.settlingValues
    }
}

/// Writes a streamed trace's records on a thread of its own, in the order they were handed
/// over, so the app's thread spends a turn only on converting and rendering it: the JSON
/// encoding and the write system calls happen here. Each record is written as soon as the
/// thread gets to it, so a crash still loses only what was in flight.
///
/// A write that fails, or finds the file removed or replaced, is kept as the fault; nothing is
/// written after it. The stream reads the fault on the app's thread and reports it there.
final class StreamWriter: Sendable {
    private let descriptor: Int32
    private let path: String
    /// The file's identity when opened, to notice it being removed or replaced.
    private let device: UInt64
    private let inode: UInt64
    private let queue = DispatchQueue(label: "CogTrace.stream-writer")
    /// Whether records are written on `queue` (else at once, on the caller's thread).
    private let writesInBackground: Bool
    /// Records handed over and not encoded yet: while more are queued, encoded bytes wait so a
    /// burst of turns costs one system call, not one each.
    private let queued = Atomic<Int>(0)
    /// Encoded bytes not written yet; touched only by whoever writes (the queue, or the caller
    /// when writing is immediate).
    private let unwritten = Mutex<[UInt8]>([])
    /// Bytes kept back at most before a write, however long the burst.
    private static let burstLimit = 1 << 20
    private let fault = Mutex<RecorderFault?>(nil)

    /// Opens (creating or truncating) the file at `path`.
    /// - Throws: `RecorderFault` naming the path and the system's reason.
    init(path: String, writing: RecorderConfiguration.StreamWriting) throws(RecorderFault) {
        self.path = path
        writesInBackground = writing == .background
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw RecorderFault(path: path, reason: String(cString: strerror(errno))) }
        var status = stat()
        fstat(descriptor, &status)
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// What stopped writing, if anything has.
    var currentFault: RecorderFault? { fault.withLock { $0 } }

    /// Encodes and writes `records`: on the writer's thread, or now when writing is immediate.
    func write(_ records: SettledRecords) {
        queued.add(1, ordering: .relaxed)
        guard writesInBackground else { return perform(records) }
        queue.async { [self] in perform(records) }
    }

    private func perform(_ records: SettledRecords) {
        let stillQueued = queued.subtract(1, ordering: .relaxed).newValue
        guard currentFault == nil else { return }
        var lines = TraceLines()
        for line in records.lines { lines.append(line) }
        if let turn = records.turn { lines.append(turn.jsonValue) }
        let bytes = unwritten.withLock { unwritten -> [UInt8]? in
            unwritten += lines.bytes
            guard stillQueued == 0 || unwritten.count >= Self.burstLimit else { return nil }
            defer { unwritten.removeAll(keepingCapacity: true) }
            return unwritten
        }
        guard let bytes else { return }
        if let reason = writeAll(bytes) ?? replacedReason() {
            fault.withLock { $0 = $0 ?? RecorderFault(path: path, reason: reason) }
        }
    }

    /// Waits until everything handed over so far is written (or failed).
    func drain() {
        queue.sync {}
    }

    /// Writes what is left, then closes the file.
    func close() {
        queue.sync { _ = Foundation.close(descriptor) }
    }

    /// Writes every byte, retrying short writes; the system's reason when it cannot.
    private func writeAll(_ bytes: [UInt8]) -> String? {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return String(cString: strerror(count < 0 ? errno : EIO)) }
            written += count
        }
        return nil
    }

    /// Why the path no longer names the file being written, if it does not: writes to a removed
    /// file succeed and vanish, so streaming stops rather than pretend.
    private func replacedReason() -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return "the file was removed while streaming" }
        guard UInt64(status.st_dev) == device, UInt64(status.st_ino) == inode else {
            return "the file was replaced while streaming"
        }
        return nil
    }
}
