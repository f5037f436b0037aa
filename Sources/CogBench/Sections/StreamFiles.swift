import CogTrace
import Foundation

/// A file of its own for every streamed run, all removed together when asked (and at the latest
/// when the bench ends). The files are made, empty, before the timed runs: building a URL is
/// the bench's work, not the recorder's, and a visible share of a short streamed run; creating
/// the file is a once-per-recording cost of the file system, timed apart
/// (`timeCreation`) since on ext4 it grows with the files removed in the last minutes, which the
/// bench itself removes by the hundred.
final class StreamFiles {
    /// A folder of its own, so that two at once (tests run in parallel) never remove each
    /// other's files.
    private let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("cog-bench-\(getpid())-streams-\(UUID().uuidString)", isDirectory: true)
    private var count = 0
    private var prepared: [URL] = []

    init() {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// The next file's URL: one `prepare` made, else a new name with no file yet.
    func next() -> URL { prepared.popLast() ?? makeURL() }

    /// Makes the next `count` files now, empty, so that `next()` only hands them out and a
    /// stream opens a file that exists.
    func prepare(_ count: Int) {
        prepared = (0..<count).map { _ in makeURL() }.reversed()
        // One that cannot be made is made by the stream, as an app's is.
        for url in prepared { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
    }

    /// A new file's URL, made without touching the disk: `appendingPathComponent` without
    /// `isDirectory` asks the file system whether the name is a folder, a system call of 15-70
    /// µs.
    private func makeURL() -> URL {
        count += 1
        return directory.appendingPathComponent("\(count).cogtrace", isDirectory: false)
    }

    /// How many files `timeCreation` creates.
    static let creationSamples = 5

    /// Times creating empty files beside the streamed ones, opened as a stream opens its file
    /// (`OpenedTrace.open`), then closed, so a reader can tell a slow volume from a slow
    /// recorder. On an ext4 volume without a journal this cost grows with the files removed in
    /// the last minutes and depends on where the folder's inodes are (docs/performance.md,
    /// "Recorder and streaming"); a streamed run pays it once. The files go with the streamed ones,
    /// in `removeAll`.
    func timeCreation(section: String, name: String) -> Measurement {
        let clock = ContinuousClock()
        let times = (0..<Self.creationSamples).map { _ in
            count += 1
            let path = directory.appendingPathComponent("probe-\(count)", isDirectory: false).path
            return clock.measure { try? OpenedTrace.open(path).get().close() }.milliseconds
        }
        return Measurement(
            section: section, name: name, variant: "file creation (streamed files' folder)", samples: times)
    }

    func removeAll() {
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
}
