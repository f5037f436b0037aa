#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one way the tools write to standard error. A diagnostic must never stop the program that
/// writes it: when standard error is closed or full (`2>/dev/full`), the write fails once and is
/// dropped, and the exit status still says what happened. (Foundation's `FileHandle` traps on a
/// failed write.)
public enum StandardError {
    /// Writes `text` to file descriptor 2 as it is; gives up at the first error.
    public static func write(_ text: String) {
        _ = writeAll(text, to: 2)
    }

    /// Writes every byte of `text` to `descriptor`, retrying short and interrupted writes;
    /// the `errno` of the first failure, or 0. Both standard streams write through it.
    static func writeAll(_ text: String, to descriptor: Int32) -> Int32 {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { buffer -> Int32 in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return written < 0 ? errno : EIO
                }
            }
            return 0
        }
    }

    private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(descriptor, bytes, count)
        #else
            Darwin.write(descriptor, bytes, count)
        #endif
    }
}
