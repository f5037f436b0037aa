import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

@testable import CogInspector
@testable import CogInspectorExport

/// `sql` reads its tables of turns and events straight from the file (virtual tables); they must
/// hold exactly what the copied tables an `export sqlite` writes hold.
@Suite("SQL tables")
struct SQLTableTests {
    static let names = ["tour", "map", "screens", "stale-refresh", "switching", "heat-advisory", "service-outage"]

    private func session(_ name: String) throws -> InspectorSession { try Recording.session(name) }

    /// Every virtual table returns the rows the copied table holds, in the same order.
    @Test(arguments: names)
    func virtualTablesHoldWhatCopiedTablesHold(_ name: String) throws {
        let session = try session(name)
        let copied = try TraceDatabase(sources: [session.context().databaseSource], fillsEveryTable: true)
        let virtual = try TraceDatabase(sources: [session.context().databaseSource], fillsEveryTable: false)
        for (table, _) in TraceDatabase.tableDeclarations {
            // A copied table shows `turns.seq`, which the virtual one hides from `SELECT *`.
            let query = "SELECT * FROM \(table)"
            let rows = try virtual.query(query)
            let expected = try copied.query("SELECT \(rows.columns.joined(separator: ", ")) FROM \(table)")
            #expect(rows == expected, "\(name) \(table)")
            let count = "SELECT count(*) FROM \(table)"
            #expect(try virtual.query(count) == copied.query(count))
        }
        let known = "SELECT turn, state, label, trace FROM recomputes"
        #expect(try virtual.query(known) == copied.query(known))
    }

    /// Each table's row count is what decoding every turn and sorting its events by case gives:
    /// the tables' kind names agree with the events they hold.
    @Test(arguments: names)
    func eachTableHoldsTheEventsOfItsCases(_ name: String) throws {
        let session = try session(name)
        var expected: [String: Int] = ["turns": session.turns.count]
        for sequence in session.turns {
            let turn = try session.trace.turn(sequence)
            for event in turn.events + turn.after {
                expected["events", default: 0] += 1
                let table: String? =
                    switch event {
                    case .write, .writeDiscarded: "writes"
                    case .recompute: "recomputes"
                    case .edgeAdded, .edgeRemoved: "edges"
                    case .leaseAcquired, .leaseReleased, .leaseRenewed: "leases"
                    case .generationStarted, .generationCancelled, .generationAccepted, .generationRejected,
                        .asyncStatus, .refreshResolved:
                        "async"
                    default: nil
                    }
                if let table { expected[table, default: 0] += 1 }
            }
        }
        let database = try TraceDatabase(sources: [session.context().databaseSource], fillsEveryTable: false)
        for table in ["turns", "events", "writes", "recomputes", "edges", "leases", "async"] {
            let counted = try database.query("SELECT count(*) FROM \(table)").rows
            #expect(counted == [[.integer(expected[table] ?? 0)]], "\(name) \(table)")
        }
    }

    /// A value the scan could skip but the decoder refuses stops the query that reads it with
    /// the line, while a count that needs no value still answers.
    @Test func aMalformedValueStopsTheQueryThatReadsIt() throws {
        let header =
            #"{"type":"header","format":"cogtrace","version":"1.1","minReader":"1.0","producer":"test","run":"r","title":"t","clock":"virtual","mode":"ring","capacity":10,"keyframeEvery":100}"#
        let state =
            #"{"type":"state","id":1,"label":"a","decl":"a","key":null,"shape":"automatic","valueType":"Int","lifetime":"app","policy":null}"#
        let turn =
            #"{"type":"turn","seq":1,"name":"one","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"recompute","s":1,"old":null,"new":{"t":"1","j":1}}]}"#
        let trace = try TraceFile.parse([header, state, turn].joined(separator: "\n") + "\n")
        let session = InspectorSession(trace: trace, source: "t")
        let database = try TraceDatabase(sources: [session.context().databaseSource], fillsEveryTable: false)
        #expect(try database.query("SELECT count(*) FROM recomputes").rows == [[.integer(1)]])
        #expect(throws: InspectorError.self) { try database.query("SELECT changed FROM recomputes") }
        do {
            _ = try database.query("SELECT changed FROM recomputes")
        } catch {
            #expect(error.description.contains("the trace is malformed: line 3"), "\(error)")
        }
    }
}
