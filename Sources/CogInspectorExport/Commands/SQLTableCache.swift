import CogInspector
import CogTraceStore
import Synchronization

/// The SQLite tables `sql` built for each open trace, kept between commands so a second query
/// does not fill them again. The export module owns them, keyed by the trace they copy: when the
/// trace gains states or failures (the tables that are copies, not views) or is replaced by a
/// restarted app's recording, the key no longer matches and they are built afresh.
enum SQLTableCache {
    /// One trace's tables and what the trace held when they were built.
    ///
    /// `@unchecked Sendable`: a `TraceFile` is not `Sendable`, so the trace an entry is keyed
    /// by, and the session that reads through it, stay in one isolation domain; an entry is
    /// found only through its live trace (`tables(of:)` compares the weak reference), so its
    /// database is only ever used from that same domain.
    private final class Entry: @unchecked Sendable {
        weak var trace: TraceFile?
        let states: Int
        let failures: Int
        let database: TraceDatabase

        init(trace: TraceFile, database: TraceDatabase) {
            self.trace = trace
            states = trace.states.count
            failures = trace.failures.count
            self.database = database
        }

        /// Whether these are the tables of `trace` as it is now.
        func matches(_ trace: TraceFile) -> Bool {
            self.trace === trace && states == trace.states.count && failures == trace.failures.count
        }
    }

    private static let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    /// The tables of `trace`, built with `build` unless the ones kept still match it.
    static func tables(
        of trace: TraceFile, build: () throws(InspectorError) -> TraceDatabase
    ) throws(InspectorError) -> TraceDatabase {
        let key = ObjectIdentifier(trace)
        let kept = entries.withLock { entries -> Entry? in
            entries = entries.filter { $0.value.trace != nil }
            return entries[key]
        }
        if let kept, kept.matches(trace) { return kept.database }
        let built = Entry(trace: trace, database: try build())
        entries.withLock { $0[key] = built }
        return built.database
    }
}
