import CogTraceFormat
import Foundation

/// Whether a load reopens a trace from a sidecar index and writes one.
public enum TraceIndexUse: Sendable {
    /// Never: every open reads every line.
    case off
    /// For a trace of `TraceIndexStore.minimumTraceBytes` or more: a small trace
    /// reads faster than its index would.
    case automatic
    /// For every trace, whatever its size (tests use it on small recordings).
    case always
    /// For a trace of at least this many bytes.
    case atLeast(Int)

    /// Whether an index is read and written for `bytes`. A file still being written may have
    /// one too: it covers the part read, and serves that part once the file has grown.
    func applies(to bytes: TraceBytes) -> Bool {
        switch self {
        case .off: false
        case .automatic: bytes.count >= TraceIndexStore.minimumTraceBytes
        case .always: true
        case .atLeast(let size): bytes.count >= size
        }
    }
}

/// Where sidecar indexes live and how they are read and written: `TRACE.cogindex` beside the
/// trace, or, where that directory cannot be written, in the user's cache directory
/// (`$XDG_CACHE_HOME/cog-inspector`, else `~/.cache/cog-inspector`) under a name made from the
/// trace's absolute path. Writing is atomic (a temporary file renamed into place).
enum TraceIndexStore {
    /// The smallest trace indexed by default: below it, reading every line is as fast.
    static let minimumTraceBytes = 32 << 20

    /// Where the index of the trace at `url` may be: beside it first, then in the cache.
    static func locations(of url: URL) -> [URL] {
        let beside = URL(fileURLWithPath: url.path + ".cogindex")
        guard let cache = cacheDirectory else { return [beside] }
        let absolute = url.standardizedFileURL.path
        let name = String(TraceIndexFile.checksum(Array(absolute.utf8)), radix: 16) + ".cogindex"
        return [beside, cache.appendingPathComponent(name)]
    }

    private static var cacheDirectory: URL? {
        let environment = ProcessInfo.processInfo.environment
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return URL(fileURLWithPath: cache).appendingPathComponent("cog-inspector")
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/cog-inspector")
    }

    /// The trace at `url` reopened from its index, and whether the index covered all of it
    /// (else the lines past it were read, as a trace that grew since); nil when there is no
    /// index or it cannot be used (then `note` hears why, and the caller reads the trace and
    /// writes a new one).
    /// - Parameter following: read as a file still being written: a last line without its line
    ///   feed waits, and no trailer is no warning.
    /// - Throws: `TraceReadError` for a malformed line past what the index covers.
    /// - Parameter progress: told how far reading the index and the lines past it got.
    static func reopen(
        _ url: URL, bytes: TraceBytes, memoryBudget: MemoryBudget, following: Bool = false,
        progress: ((TraceProgress) -> Void)? = nil, note: ((String) -> Void)?
    ) throws(TraceReadError) -> (file: TraceFile, coveredAll: Bool)? {
        for location in locations(of: url) {
            guard let index = FileManager.default.contents(atPath: location.path) else { continue }
            var contents: TraceContents
            do throws(TraceIndexFile.Problem) {
                contents = try TraceIndexFile.decode(
                    Array(index), of: bytes, memoryBudget: memoryBudget, progress: progress)
            } catch {
                note?("rebuilding the index of \(url.relativePath): \(error)")
                return nil
            }
            guard let header = contents.header else { continue }
            let coveredAll = contents.readOffset >= bytes.count
            if !coveredAll {
                try contents.read(bytes, memoryBudget: memoryBudget, waitsForPartialLine: following, progress: progress)
            }
            if !following { contents.checkEnds() }
            if contents.trailer == nil, !following {
                contents.warnings.append(
                    TraceWarning(
                        line: 0, message: "no trailer: the recorder did not finish; the trace may be incomplete"))
            }
            // Reading the keyframes paged in far more of the file around them than they are.
            bytes.releaseResidentPages()
            return (TraceFile(header: header, contents: contents, bytes: bytes), coveredAll)
        }
        return nil
    }

    /// Writes the index of `file` (read whole from `url`); says where, or that it could not.
    static func save(_ file: TraceFile, of url: URL, note: ((String) -> Void)?) {
        // Only whole lines are covered: not a truncated last line, nor one whose line feed has
        // not come yet (it would be read again, as a blank line, once the file grew).
        let contents = file.contents
        guard contents.truncatedLine == nil, contents.readOffset <= file.bytes.count || contents.trailer != nil
        else { return }
        let index = TraceIndexFile.encode(file.contents, of: file.bytes)
        for location in locations(of: url) {
            let directory = location.deletingLastPathComponent()
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // An index is ours to replace, but never through a link someone put in its place.
            guard (try? SafeFile.write(index, to: location.path, replacing: true)) != nil else { continue }
            note?("indexed \(url.relativePath) for a faster reopening (\(location.path); --no-index skips it)")
            return
        }
        note?("could not write an index of \(url.relativePath); it is read whole each time")
    }
}
