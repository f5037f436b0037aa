import Foundation

/// Where an export writes, checked before anything is written: a directory, a device or a FIFO is
/// refused; an existing file or a symbolic link is replaced only with `--force`, and then
/// atomically (written beside it, then renamed over it), so a failed write never costs the old
/// file. A symbolic link is replaced itself, never written through.
package struct OutputFile {
    /// The path as given.
    package let path: String
    /// Whether something is there now that the write will replace.
    let replaces: Bool

    /// `path` checked, or nil when there is none (the export goes to standard output).
    package static func checked(_ path: String?, force: Bool) throws(InspectorError) -> OutputFile? {
        try path.map { path throws(InspectorError) in try OutputFile(path, force: force) }
    }

    /// Checks `path`.
    /// - Throws: `InspectorError` saying why it cannot be written and what would be accepted.
    package init(_ path: String, force: Bool) throws(InspectorError) {
        self.path = path
        var status = stat()
        guard lstat(path, &status) == 0 else {
            guard errno == ENOENT else {
                throw InspectorError(
                    "cannot write '\(path)': \(String(cString: strerror(errno)).lowercased())", kind: .output)
            }
            replaces = false
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            throw InspectorError("'\(path)' is a directory; give a file path, e.g. '\(path)/export.out'", kind: .output)
        case S_IFLNK:
            guard force else {
                throw InspectorError(
                    "'\(path)' is a symbolic link; add --force to replace the link with the file", kind: .output)
            }
        case S_IFREG:
            guard force else { throw InspectorError("'\(path)' exists; add --force to replace it", kind: .output) }
        default:
            throw InspectorError("'\(path)' is not a regular file; give a file path", kind: .output)
        }
        replaces = true
    }

    /// A path beside the destination, in the same directory so the final rename is atomic.
    package var temporaryPath: String {
        let url = URL(fileURLWithPath: path)
        let name = ".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).partial"
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Writes `bytes` to the destination.
    package func write(_ bytes: some Collection<UInt8>) throws(InspectorError) {
        let temporary = temporaryPath
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw InspectorError("cannot write '\(path)': its directory is missing or not writable", kind: .output)
        }
        try commit(temporary)
    }

    /// Moves a finished file at `temporary` (from `temporaryPath`) onto the destination.
    package func commit(_ temporary: String) throws(InspectorError) {
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno)).lowercased()
            unlink(temporary)
            throw InspectorError("cannot write '\(path)': \(reason)", kind: .output)
        }
    }
}
