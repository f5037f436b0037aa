import Foundation

/// Why a file could not be written: the path as given and the reason, worded for a person
/// (`'out.dot' is a symbolic link; give the path of a regular file`).
package struct FileWriteError: Error, Equatable, CustomStringConvertible {
    /// What stood in the way.
    package enum Reason: Equatable, Sendable {
        /// A symbolic link is there: writing through it would change another file.
        case symbolicLink
        /// A directory is there.
        case directory
        /// A device, a FIFO or a socket is there.
        case notRegularFile
        /// A file is there and the caller did not ask to replace it.
        case exists
        /// The device holding it is full (or the quota is spent).
        case diskFull
        /// Any other failure, as the system words it.
        case system(String)
    }

    /// The path as given.
    package let path: String
    /// Why it could not be written.
    package let reason: Reason

    /// A failure to write `path` because of `reason`.
    package init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// A failure of a system call, from its `errno`.
    package init(path: String, code: Int32) {
        self.path = path
        switch code {
        case ENOSPC, EDQUOT: reason = .diskFull
        case ELOOP: reason = .symbolicLink
        case EISDIR: reason = .directory
        default:
            let text = String(cString: strerror(code))
            reason = .system(text.prefix(1).lowercased() + text.dropFirst())
        }
    }

    /// The message, quoting the path and saying what would be accepted.
    package var description: String {
        switch reason {
        case .symbolicLink:
            "'\(path)' is a symbolic link; give the path of a regular file (a link is never written through)"
        case .directory: "'\(path)' is a directory; give a file path, e.g. '\(path)/out'"
        case .notRegularFile: "'\(path)' is not a regular file; give a file path"
        case .exists: "'\(path)' exists; add --force to replace it"
        case .diskFull: "cannot write '\(path)': the disk is full; nothing was written"
        case .system(let text): "cannot write '\(path)': \(text)"
        }
    }
}
