#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one way the tools write to standard output. Output is the job: when it cannot be
/// written (`> /dev/full`, a reader that left), the tool says so in one line on standard error
/// and exits 74 (`ExitStatus.ioError`), never 0 with the output lost. Anything `print` buffered
/// is flushed first, so the order holds.
public enum StandardOutput {
    /// Writes `text` to file descriptor 1 whole, or exits 74 naming `tool` and the reason.
    public static func write(_ text: String, tool: String = programName) {
        var failure: Int32 = fflush(nil) == 0 ? 0 : errno
        if failure == 0 { failure = StandardError.writeAll(text, to: 1) }
        guard failure != 0 else { return }
        let reason = String(cString: strerror(failure)).lowercased()
        StandardError.write("\(tool): cannot write to standard output: \(reason)\n")
        exit(ExitStatus.ioError.rawValue)
    }

    /// The running program's name, from its path: what the error line starts with.
    public static var programName: String {
        guard let path = CommandLine.arguments.first, let name = path.split(separator: "/").last else { return "tool" }
        return String(name)
    }
}
