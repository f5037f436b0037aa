/// How an open trace's file changed under the reader: it was cut shorter (a test run again
/// rewrote it in place), so the bytes past its new end are gone and answers that read them
/// would be wrong.
public struct TraceFileChange: Sendable, Equatable, CustomStringConvertible {
    /// The file's size when it was opened.
    public let mappedSize: Int
    /// Its size now.
    public let sizeNow: Int

    /// "it was 1048576 bytes when opened and is 4096 now".
    public var description: String {
        "it was \(mappedSize) bytes when opened and is \(sizeNow) now"
    }
}

extension TraceFile {
    /// How the file changed since it was opened, when it was cut shorter under the reader:
    /// nil while what was read is still what the file holds (or the trace was read into memory).
    public var changeOnDisk: TraceFileChange? { bytes.cutShort }
}
