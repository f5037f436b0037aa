import CogInspector
import CogTraceStore
import Synchronization

/// The SQLite tables `sql` built for each open trace, kept between commands so a second query
/// does not fill them again. The export module owns them, keyed by the store of the trace they
/// copy: when the trace gains states or failures (the tables that are copies, not views) or is
/// replaced by a restarted app's recording, the key no longer matches and they are built afresh.
/// An entry holds its store weakly (the tables name ids through a weak reference too), so it
/// goes once the session that opened the trace is gone.
enum SQLTableCache {
    /// One store's tables and what its trace held when they were built.
    ///
    /// `@unchecked Sendable`: neither a store nor a `TraceFile` is `Sendable`, so the store an
    /// entry is keyed by, and the session that reads through it, stay in one isolation domain;
    /// an entry is used only through its live store (`tables(of:build:)` compares the weak
    /// reference), so its database is only ever used from that same domain.
    private final class Entry: @unchecked Sendable {
        weak var store: OpenTrace?
        weak var trace: TraceFile?
        let states: Int
        let failures: Int
        let database: TraceDatabase

        init(store: OpenTrace, database: TraceDatabase) {
            self.store = store
            trace = store.trace
            states = store.trace.states.count
            failures = store.trace.failures.count
            self.database = database
        }

        /// Whether these are the tables of `store`'s trace as it is now.
        func matches(_ store: OpenTrace) -> Bool {
            self.store === store && trace === store.trace && states == store.trace.states.count
                && failures == store.trace.failures.count
        }
    }

    private static let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    /// The tables of `store`'s trace, built with `build` unless the ones kept still match it.
    static func tables(
        of store: OpenTrace, build: () throws(InspectorError) -> TraceDatabase
    ) throws(InspectorError) -> TraceDatabase {
        let key = ObjectIdentifier(store)
        let kept = entries.withLock { entries -> Entry? in
            entries = entries.filter { $0.value.store != nil }
            return entries[key]
        }
        if let kept, kept.matches(store) { return kept.database }
        let built = Entry(store: store, database: try build())
        entries.withLock { $0[key] = built }
        return built.database
    }
}
