package import CogTraceStore
import Foundation

/// Where an export writes, checked before anything is written: a symbolic link, a directory, a
/// device or a FIFO is refused, and an existing file is replaced only with `--force`. Every
/// write goes through `SafeFile`: beside the target, flushed, then renamed over it, so a
/// failed or interrupted export leaves the old file (or nothing) and never a part.
package struct OutputFile {
    /// The path as given.
    package let path: String
    /// Whether an existing file there may be replaced (`--force`).
    let replacing: Bool

    /// `path` checked, or nil when there is none (the export goes to standard output).
    package static func checked(_ path: String?, force: Bool) throws(InspectorError) -> OutputFile? {
        try path.map { path throws(InspectorError) in try OutputFile(path, force: force) }
    }

    /// Checks `path`.
    /// - Throws: `InspectorError` saying why it cannot be written and what would be accepted.
    package init(_ path: String, force: Bool) throws(InspectorError) {
        self.path = path
        replacing = force
        do throws(FileWriteError) {
            try SafeFile.check(path, replacing: force)
        } catch {
            throw Self.failure(error)
        }
    }

    /// A new path beside the destination, in the same directory so the final rename is atomic,
    /// for a writer that opens its own file (SQLite); nothing is created there.
    package var temporaryPath: String {
        let url = URL(fileURLWithPath: path)
        let name = ".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).partial"
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Writes `bytes` to the destination, unless `interrupted` says so by the time they are
    /// written: then nothing is (an interrupted export leaves no file).
    package func write(_ bytes: [UInt8], unless interrupted: () -> Bool = { false }) throws(InspectorError) {
        let written: Bool
        do throws(FileWriteError) {
            written = try SafeFile.write(bytes, to: path, replacing: replacing, unless: interrupted)
        } catch {
            throw Self.failure(error)
        }
        if !written { throw .interrupted }
    }

    /// Moves a finished file at `temporary` (from `temporaryPath`) onto the destination, flushed
    /// first; on failure, or when `interrupted` says so, the temporary file is removed.
    package func commit(_ temporary: String, unless interrupted: () -> Bool = { false }) throws(InspectorError) {
        if interrupted() {
            unlink(temporary)
            throw .interrupted
        }
        let descriptor = open(temporary, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let failure = FileWriteError(path: path, code: errno)
            unlink(temporary)
            throw Self.failure(failure)
        }
        do throws(FileWriteError) {
            try SafeFile.commit(descriptor, temporary: temporary, to: path, replacing: replacing)
        } catch {
            throw Self.failure(error)
        }
    }

    /// Removes a temporary file that will not be committed.
    package func discard(_ temporary: String) {
        unlink(temporary)
    }

    /// A write failure as the export's error (exit 73).
    package static func failure(_ error: FileWriteError) -> InspectorError {
        InspectorError(error.description, kind: .output)
    }
}
