import CogTraceStore
package import Foundation

/// Where a test's trace goes in the trace directory: a name made from the test's name that is
/// always one plain file inside the directory, whatever the name holds (a newline, an escape, a
/// slash, `..`, three hundred characters), and never one that exists already.
nonisolated package enum TraceFileName {
    /// The longest stem kept from a test's name.
    static let stemLimit = 120

    /// The file-name stem for `testName`: ASCII letters, digits, `-`, `_` and `.` kept, every
    /// other character (and a leading `.`) as `_`, cut to `stemLimit`; `test` when nothing is left.
    package static func stem(for testName: String) -> String {
        var stem = ""
        for scalar in testName.unicodeScalars {
            guard stem.unicodeScalars.count < stemLimit else { break }
            let isPlain =
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar))
            stem.unicodeScalars.append(isPlain && !(stem.isEmpty && scalar == ".") ? scalar : "_")
        }
        return stem.isEmpty ? "test" : stem
    }

    /// Creates an empty file for `testName` in `directory` and returns it: `Name.cogtrace`, or
    /// `Name-2.cogtrace` and onwards when a file (of another test, or of a parallel run) has the
    /// name. Created exclusively, so two processes never get the same file.
    /// - Throws: the system's error when the directory cannot take a file.
    package static func reserve(in directory: URL, for testName: String) throws -> URL {
        let stem = stem(for: testName)
        for number in 1...10_000 {
            let file = directory.appendingPathComponent(number == 1 ? "\(stem).cogtrace" : "\(stem)-\(number).cogtrace")
            let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
            if descriptor >= 0 {
                close(descriptor)
                return file
            }
            guard errno == EEXIST else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
        throw POSIXError(.EEXIST)
    }

    /// Writes `bytes` to a new file for `testName` in `directory` (`reserve`), flushed to disk;
    /// a write that fails (a full disk) leaves no file behind.
    package static func write(_ bytes: [UInt8], in directory: URL, for testName: String) throws -> URL {
        let file = try reserve(in: directory, for: testName)
        let descriptor = open(file.path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        var failure = descriptor < 0 ? errno : 0
        if failure == 0 { failure = bytes.withUnsafeBytes { SafeFile.writeAll(descriptor, $0) } }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        if descriptor >= 0 { close(descriptor) }
        guard failure == 0 else {
            unlink(file.path)
            throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
        }
        return file
    }

    /// Replaces `file` with `bytes` in one step: written to a new file beside it, flushed to
    /// disk, then renamed over it, so the old content stays whole until the new one is.
    package static func replace(_ file: URL, with bytes: [UInt8]) throws {
        let directory = file.deletingLastPathComponent()
        let temporary = try write(bytes, in: directory, for: "." + file.lastPathComponent + ".partial")
        guard rename(temporary.path, file.path) == 0 else {
            let failure = errno
            unlink(temporary.path)
            throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
        }
    }
}
