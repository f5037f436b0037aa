/// The exit statuses every tool of the package uses, so a script can tell outcomes apart the same
/// way whichever tool it runs. The numbers above 63 follow the BSD `sysexits` convention.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Everything asked for was done: the answer was found, the recordings agree.
    case success = 0
    /// A command failed, or in batch a comparison found a difference or a search found nothing.
    case failure = 1
    /// An `expect` did not hold.
    case expectationFailed = 3
    /// The command line was wrong.
    case usage = 64
    /// An input was read but is not valid (a malformed trace).
    case malformedInput = 65
    /// An input could not be opened: missing, unreadable, or not a regular file.
    case cannotOpenInput = 66
    /// An output could not be created or would replace something without `--force`.
    case cannotCreateOutput = 73
    /// Writing failed: standard output is full or closed (`> /dev/full`, a reader that left).
    case ioError = 74
    /// Stopped by an interrupt (SIGINT).
    case interrupted = 130

    /// The line `--help` prints to explain the statuses.
    public static let summary =
        "exit status: 0 success, 1 failed or differs, 3 an expect failed, 64 usage, 65 malformed input,\n"
        + "             66 cannot open an input, 73 cannot create an output, 74 cannot write the output,\n"
        + "             130 interrupted"
}
