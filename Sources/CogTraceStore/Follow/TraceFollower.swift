import CogTraceFormat
public import Foundation

/// A trace file read while a recorder writes it: each `poll` reads what was appended since the
/// last one, and notices the file being truncated, replaced or removed instead of reading
/// nonsense. It owns no timing: the caller decides how often to poll.
public final class TraceFollower {
    /// What a poll found.
    public enum Change: Equatable, Sendable {
        /// Nothing new (or only part of a line, which waits for its end).
        case none
        /// Complete lines arrived.
        case grew(TraceGrowth)
        /// The file is shorter than what was read, or its first line changed: it was truncated
        /// and written again. Following stops.
        case truncated
        /// The path names another file now (a new recording started under the same name).
        /// Following stops.
        case replaced
        /// The file is as long as what was read and starts the same, but the last bytes read
        /// are not there any more: it was rewritten in place (a new recording, or another one
        /// copied over it). Following stops, and nothing is joined to what was read.
        case rewritten
        /// The path names no file any more. Following stops.
        case removed
        /// The process writing the file (named in its header) ended without writing the
        /// trailer: nothing more will arrive. Following stops.
        case writerEnded(pid: Int)
    }

    /// The trace read so far; it grows with each poll.
    public let trace: TraceFile
    /// The path followed, as given.
    public let path: String
    private let descriptor: Int32
    private let device: UInt64
    private let inode: UInt64
    /// How many of the file's bytes are in `trace`.
    private var readLength: Int
    /// The file's first line as first read: a truncated and rewritten file starts differently.
    private let firstLine: [UInt8]
    /// Set once the file stops being followable; every later poll reports it again.
    public private(set) var ended: Change?
    /// When the writer was last checked for, while nothing arrived: at most twice a second.
    private var writerCheckedAt: ContinuousClock.Instant?

    /// Which traces get a sidecar index, and how many bytes the last `saveIndex` covered: it
    /// writes again only when more has been read.
    private var indexUse: TraceIndexUse = .off
    private var indexedLength = 0

    private init(trace: TraceFile, path: String, descriptor: Int32, status: stat) {
        self.trace = trace
        self.path = path
        self.descriptor = descriptor
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        readLength = trace.bytes.count
        firstLine = trace.bytes.firstLine
    }

    deinit { close(descriptor) }

    /// Starts following the trace at `url`: nil while there is nothing to follow yet (no such
    /// file, or not even its header line), so the caller can wait for the recorder to start.
    /// - Throws: `TraceReadError` for a file that cannot be read, or that is malformed.
    /// - Parameters:
    ///   - index: which traces a sidecar index serves: the part of the file an index covers is
    ///     not read again, and `saveIndex` extends it.
    ///   - note: hears what happened to an index (rebuilt, written).
    public static func start(
        _ url: URL, memoryBudget: MemoryBudget = .standard, index: TraceIndexUse = .off,
        note: ((String) -> Void)? = nil
    ) throws(TraceReadError) -> TraceFollower? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        // Opened before it is read, so the bytes read and the descriptor kept are the same file.
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            _ = try TraceFile.readBytes(of: url)  // says why it is not a file that can be followed
            return nil
        }
        var bytes: [UInt8] = []
        let trace: TraceFile?
        do {
            trace =
                Self.readToEnd(descriptor, from: 0, into: &bytes) == nil
                ? try TraceFile.following(bytes, memoryBudget: memoryBudget, url: url, index: index, note: note)
                : nil
        } catch {
            close(descriptor)
            throw error
        }
        guard let trace else {
            close(descriptor)
            return nil
        }
        let follower = TraceFollower(trace: trace, path: url.path, descriptor: descriptor, status: status)
        follower.indexUse = index
        return follower
    }

    /// Writes the sidecar index of what has been read, when the index use applies and more was
    /// read than at the last save: the next open, followed or not, reads only what came after.
    /// A file truncated, replaced or removed under the follower gets none.
    public func saveIndex(note: ((String) -> Void)? = nil) {
        let fileIsTheOneRead = ended.map { if case .writerEnded = $0 { true } else { false } } ?? true
        guard indexUse.applies(to: trace.bytes), fileIsTheOneRead,
            trace.readByteCount > indexedLength, identityChange() == nil
        else { return }
        TraceIndexStore.save(trace, of: URL(fileURLWithPath: path), note: note)
        indexedLength = trace.readByteCount
    }

    /// Goes on reading the file `trace` was loaded from, from where the load stopped.
    /// - Throws: `TraceReadError` when the file cannot be opened, no longer starts as `trace`
    ///   did, is shorter than what was read, or already has its trailer.
    public static func continuing(_ trace: TraceFile, at url: URL) throws(TraceReadError) -> TraceFollower {
        guard trace.trailer == nil else {
            throw TraceReadError(
                line: 0, message: "'\(url.relativePath)' is finished (it has its trailer); nothing more will arrive")
        }
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw TraceReadError(
                line: 0, message: "cannot open '\(url.relativePath)': \(String(cString: strerror(errno)))",
                isUnopenable: true)
        }
        var status = stat()
        let follower = TraceFollower(
            trace: trace, path: url.path, descriptor: descriptor,
            status: fstat(descriptor, &status) == 0 ? status : stat())
        if let change = follower.identityChange() {
            throw TraceReadError(line: 0, message: "'\(url.relativePath)' \(change.sentence) since it was opened")
        }
        _ = trace.resumeFollowing()
        return follower
    }

    /// Whether the file at `url` is no longer the one `trace` was loaded from: gone, another
    /// file, shorter, or starting differently (a restarted app wrote over it).
    public static func hasChanged(_ trace: TraceFile, at url: URL) -> Bool {
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return true }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, Int(status.st_size) >= trace.bytes.count else { return true }
        return !startsWith(trace.bytes.firstLine, descriptor)
            || !endsWith(trace.bytes, upTo: trace.bytes.count, descriptor)
    }

    /// How many of the last bytes read are compared with the file at each poll: a file written
    /// again from its start (the same header, at least as long) differs there.
    static let comparedTailLength = 65_536

    /// Whether the file at `descriptor` holds the last bytes of `bytes[..<length]` where they were.
    private static func endsWith(_ bytes: TraceBytes, upTo length: Int, _ descriptor: Int32) -> Bool {
        let start = max(0, min(length, bytes.count) - comparedTailLength)
        let expected = bytes[start..<min(length, bytes.count)]
        var found = [UInt8](repeating: 0, count: expected.count)
        var filled = 0
        while filled < found.count {
            let count = found[filled...].withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress, $0.count, off_t(start + filled))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            filled += count
        }
        return found.elementsEqual(expected)
    }

    /// Whether the file at `descriptor` begins with `firstLine`: a rewritten file starts anew.
    private static func startsWith(_ firstLine: [UInt8], _ descriptor: Int32) -> Bool {
        var start = [UInt8](repeating: 0, count: firstLine.count)
        let count = start.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, firstLine.count, 0) }
        return count == firstLine.count && start == firstLine
    }

    /// Reads what arrived since the last poll.
    /// - Throws: `TraceReadError` for a malformed line that arrived (following should stop).
    public func poll() throws(TraceReadError) -> Change {
        if let ended { return ended }
        if let change = identityChange() {
            ended = change
            return change
        }
        var arrived: [UInt8] = []
        if let errorNumber = Self.readToEnd(descriptor, from: readLength, into: &arrived) {
            throw TraceReadError(line: 0, message: "cannot read '\(path)': \(String(cString: strerror(errorNumber)))")
        }
        guard !arrived.isEmpty else { return writerEnded() ?? .none }
        writerCheckedAt = nil
        readLength += arrived.count
        let growth: TraceGrowth
        do {
            growth = try trace.append(arrived)
        } catch {
            // A file rewritten while it was being read: said as such, not as a malformed line.
            if let change = identityChange() {
                ended = change
                return change
            }
            throw error
        }
        return growth.isEmpty ? .none : .grew(growth)
    }

    /// `.writerEnded` once nothing arrived and the writer the header names is gone; checked at
    /// most every half second, so a quiet file costs no more than a glance at `/proc`.
    private func writerEnded() -> Change? {
        guard trace.trailer == nil, let writer = trace.header.writer else { return nil }
        let now = ContinuousClock.now
        if let last = writerCheckedAt, now - last < .milliseconds(500) { return nil }
        writerCheckedAt = now
        guard writer.hasEnded else { return nil }
        // What it wrote just before it died is read first.
        var arrived: [UInt8] = []
        if Self.readToEnd(descriptor, from: readLength, into: &arrived) == nil, !arrived.isEmpty { return nil }
        ended = .writerEnded(pid: writer.pid)
        return ended
    }

    /// Whether the path still names the file read so far: at least as long, starting the same,
    /// and holding the last bytes read where they were.
    public var namesTheFileRead: Bool { identityChange() == nil }

    /// What happened to the path since it was opened; nil while it names the file read so far.
    private func identityChange() -> Change? {
        var status = stat()
        guard stat(path, &status) == 0 else { return .removed }
        guard UInt64(status.st_dev) == device, UInt64(status.st_ino) == inode else { return .replaced }
        guard fstat(descriptor, &status) == 0, Int(status.st_size) >= readLength else { return .truncated }
        if Self.startsWith(firstLine, descriptor), Self.endsWith(trace.bytes, upTo: readLength, descriptor) {
            return nil
        }
        // A file truncated between the size check and the comparisons reads short there: it is
        // said as truncated, not as rewritten.
        guard fstat(descriptor, &status) == 0, Int(status.st_size) >= readLength else { return .truncated }
        return .rewritten
    }

    /// Appends the bytes from `offset` to the end of the file as it is now; the error number when
    /// a read fails. Bytes written meanwhile wait for the next read.
    private static func readToEnd(_ descriptor: Int32, from offset: Int, into bytes: inout [UInt8]) -> Int32? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return errno }
        let wanted = Int(status.st_size) - offset
        guard wanted > 0 else { return nil }
        var failure: Int32?
        let read = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else { return }
            while initialized < wanted {
                let count = pread(descriptor, base + initialized, wanted - initialized, off_t(offset + initialized))
                if count < 0, errno == EINTR { continue }
                if count < 0 { failure = errno }
                if count <= 0 { break }
                initialized += count
            }
        }
        bytes += read
        return failure
    }
}

extension TraceFollower.Change {
    /// What happened to the file, as the end of a sentence about it: "was truncated".
    public var sentence: String {
        switch self {
        case .none: "has not changed"
        case .grew: "grew"
        case .truncated: "was truncated"
        case .replaced: "was replaced by another file"
        case .rewritten: "was written again from its start (a new recording)"
        case .removed: "was removed"
        case .writerEnded(let pid):
            "stopped growing: the writing process (pid \(pid)) ended without finishing its trace"
        }
    }
}
