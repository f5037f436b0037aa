import CogTraceStore

extension InspectorSession {
    /// Commands that never read the trace's file, so they still work once it changed on disk.
    static let commandsWithoutTrace: Set<String> = ["help", "quit", "set", "clear", "unwatch"]

    /// Fails when the open trace's file (or a companion's) was cut shorter on disk since it
    /// was opened: the session stays, and the message says how to read the file anew.
    func refuseChangedTrace() throws(InspectorError) {
        if let error = changedTraceError() { throw error }
    }

    /// The error `refuseChangedTrace` throws, or nil while every open file still holds what was
    /// read from it.
    func changedTraceError() -> InspectorError? {
        let open = [(source, trace)] + companions.map { ($0.source, $0.trace) }
        guard let (name, change) = open.lazy.compactMap({ name, trace in trace.changeOnDisk.map { (name, $0) } }).first
        else { return nil }
        return InspectorError(
            "the trace '\(name)' was cut shorter on disk while it was open (\(change)); "
                + "what it held past its new end cannot be read: leave and run 'coginspect \(name)' again",
            kind: .traceChanged)
    }
}
