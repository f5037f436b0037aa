import Foundation

/// The one way the package writes a file: into a new file beside the target (created
/// exclusively, never through a link), flushed to disk, then renamed over the target. A reader
/// sees the old file or the new one, whole, never a part; a failure (a full disk, an interrupt)
/// leaves the old file as it was and no new one. A symbolic link, a directory or any file
/// that is not regular is refused, and an existing file is replaced only when asked.
package enum SafeFile {
    /// Fails unless `path` can be written: nothing there, or a regular file and `replacing`.
    package static func check(_ path: String, replacing: Bool) throws(FileWriteError) {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            guard errno == ENOENT else { throw FileWriteError(path: path, code: errno) }
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: if !replacing { throw FileWriteError(path: path, reason: .exists) }
        case S_IFLNK: throw FileWriteError(path: path, reason: .symbolicLink)
        case S_IFDIR: throw FileWriteError(path: path, reason: .directory)
        default: throw FileWriteError(path: path, reason: .notRegularFile)
        }
    }

    /// Whether something is at `path` (a link counts, whatever it points to).
    package static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// A new, empty file beside `path`, in the same folder so the final rename is atomic, open
    /// for writing: its descriptor and its path, for `commit` or `discard`.
    package static func createTemporary(beside path: String) throws(FileWriteError) -> (descriptor: Int32, path: String)
    {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        for _ in 0..<100 {
            let name = ".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).partial"
            let temporary = folder == "/" ? "/\(name)" : "\(folder)/\(name)"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
            if descriptor >= 0 { return (descriptor, temporary) }
            guard errno == EEXIST else {
                let code = errno
                throw code == ENOENT || code == EACCES || code == EROFS
                    ? FileWriteError(path: path, reason: .system("its folder is missing or may not be written"))
                    : FileWriteError(path: path, code: code)
            }
        }
        throw FileWriteError(path: path, code: EEXIST)
    }

    /// Writes every byte of `bytes` at the descriptor's position, retrying short writes and
    /// interrupted calls; the `errno` of a failure, or 0.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let base = bytes.baseAddress else { return 0 }
        var written = 0
        while written < bytes.count {
            let count = Foundation.write(descriptor, base + written, bytes.count - written)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count < 0 ? errno : EIO }
            written += count
        }
        return 0
    }

    /// Flushes and closes the temporary file, then renames it over `path` (checked again
    /// first: a link or a directory may have appeared meanwhile). On any failure the temporary
    /// file is removed and `path` is as it was.
    package static func commit(
        _ descriptor: Int32, temporary: String, to path: String, replacing: Bool
    ) throws(FileWriteError) {
        let flushed = fsync(descriptor) == 0 ? 0 : errno
        close(descriptor)
        do throws(FileWriteError) {
            if flushed != 0 { throw FileWriteError(path: path, code: flushed) }
            try check(path, replacing: replacing)
            guard rename(temporary, path) == 0 else { throw FileWriteError(path: path, code: errno) }
        } catch {
            unlink(temporary)
            throw error
        }
        syncFolder(of: path)
    }

    /// Closes and removes a temporary file that will not be committed (a failed or
    /// interrupted write).
    package static func discard(_ descriptor: Int32, temporary: String) {
        close(descriptor)
        unlink(temporary)
    }

    /// Writes `bytes` to `path` in one step, as the type's summary says; false, with nothing
    /// written, when `abandon` (an interrupt, asked just before the rename) says to give up.
    /// - Throws: `FileWriteError`; `path` is then as it was.
    @discardableResult
    package static func write(
        _ bytes: [UInt8], to path: String, replacing: Bool, unless abandon: () -> Bool = { false }
    ) throws(FileWriteError) -> Bool {
        try check(path, replacing: replacing)
        let (descriptor, temporary) = try createTemporary(beside: path)
        let failure = bytes.withUnsafeBytes { writeAll(descriptor, $0) }
        guard failure == 0 else {
            discard(descriptor, temporary: temporary)
            throw FileWriteError(path: path, code: failure)
        }
        guard !abandon() else {
            discard(descriptor, temporary: temporary)
            return false
        }
        try commit(descriptor, temporary: temporary, to: path, replacing: replacing)
        return true
    }

    /// Makes a rename in the folder of `path` durable, best effort.
    private static func syncFolder(of path: String) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
