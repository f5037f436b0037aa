import Testing

extension Optional where Wrapped == ExitTest.Result {
    /// What the child process wrote to standard error, as text ("" when the exit test did not run).
    var standardErrorText: String {
        String(decoding: self?.standardErrorContent ?? [], as: UTF8.self)
    }
}
