import Foundation

/// A file the synthetic traces write line by line: lines gather in `lines` and go to disk in
/// chunks, so a trace of millions of turns never sits whole in memory.
struct LineFile {
    /// Lines not yet written, each ending in a line feed.
    var lines = ""
    /// Bytes written so far.
    private(set) var size = 0
    private let handle: FileHandle

    /// Creates (or empties) the file at `url`.
    init(creating url: URL) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        handle = try FileHandle(forWritingTo: url)
    }

    /// Writes the gathered lines when they are more than `limit` bytes (all of them by default).
    mutating func flush(ifLargerThan limit: Int = 0) throws {
        guard lines.utf8.count > limit else { return }
        let data = Data(lines.utf8)
        try handle.write(contentsOf: data)
        size += data.count
        lines.removeAll(keepingCapacity: true)
    }

    /// Closes the file; lines not flushed are lost.
    func close() {
        try? handle.close()
    }
}
