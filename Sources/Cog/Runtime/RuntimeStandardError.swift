#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the runtime, the recorder and test support write to standard error: a failed write
/// (standard error closed or full) is dropped after one try, never a trap, so a diagnostic cannot
/// stop the app or test that prints it. The tools have the same in `CogCommandLine`, which the
/// runtime does not link.
nonisolated package enum RuntimeStandardError {
    /// Writes `text` to file descriptor 2; gives up at the first error.
    package static func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                #if canImport(Glibc)
                    let written = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                    let written = Darwin.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
                if written > 0 {
                    offset += written
                } else if !(written < 0 && errno == EINTR) {
                    return
                }
            }
        }
    }
}
