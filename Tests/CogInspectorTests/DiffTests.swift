import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

@testable import CogInspector

/// `diff A B` on the committed recordings: every kind of difference, checked against what the
/// recording's own turns say happened.
@Suite("diff between two turns")
struct DiffTests {
    static let recordings = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Recordings")

    /// A session on `Recordings/NAME.cogtrace` running the commands of `catalog`.
    static func session(_ name: String, catalog: CommandCatalog = .core) throws -> InspectorSession {
        let url = recordings.appendingPathComponent("\(name).cogtrace")
        return InspectorSession(trace: try TraceFile.load(contentsOf: url), source: name, catalog: catalog)
    }

    private func id(_ session: InspectorSession, _ label: String) throws -> NodeID {
        try #require(session.trace.stateID(labelled: label))
    }

    @Test func theIsNiceHereEdgeMovesWhenTheZipSwitches() throws {
        let session = try Self.session("tour")
        let diff = try session.context().diff(from: 8, to: 9)
        let here = try id(session, "weather.isNiceHere")
        #expect(diff.edgesAdded == [GraphDiff.Edge(consumer: here, producer: try id(session, "weather.isNice[94105]"))])
        #expect(
            diff.edgesRemoved == [GraphDiff.Edge(consumer: here, producer: try id(session, "weather.isNice[10001]"))])
        let zip = try #require(diff.valueChanges.first { $0.state == (try? id(session, "weather.currentZip")) })
        #expect(zip.old?.text == "10001" && zip.new?.text == "94105")
        #expect(try session.execute("diff 8 9 --only values")?.report.description.contains("edges") == false)
    }

    @Test func structuredValuesDifferFieldByField() throws {
        let session = try Self.session("tour")
        let diff = try session.context().diff(from: 12, to: 13).keeping([.values])
        let forecast = try #require(
            diff.valueChanges.first { $0.state == (try? id(session, "weather.forecast[10001]")) })
        #expect(forecast.fields.map(\.path) == [".condition", ".temperatureF"])
        #expect(forecast.fields.last?.old == .int(75) && forecast.fields.last?.new == .int(72))
        #expect(diff.edgesAdded.isEmpty && diff.asyncChanges.isEmpty)
    }

    @Test func asyncStatusAndGenerationChangesAreListed() throws {
        let session = try Self.session("service-outage")
        let forecast = try id(session, "weather.forecast[10001]")
        let change = try #require(
            try session.context().diff(from: 9, to: 10).asyncChanges.first { $0.state == forecast })
        #expect(change.old?.kind == .pending && change.new?.kind == .failure)
        #expect(change.new?.error == "service unavailable")
    }

    @Test func leasesAndRegistrationsComeAndGo() throws {
        let session = try Self.session("map")
        let location = try id(session, "weather.mapLocation")
        let opened = try session.context().diff(from: 7, to: 9)
        #expect(opened.leasesAcquired == [GraphDiff.Lease(state: location, holder: "export weather.mapLocation")])
        #expect(opened.statesCreated.contains(location))
        let closed = try session.context().diff(from: 9, to: 11)
        #expect(closed.leasesReleased == [GraphDiff.Lease(state: location, holder: "export weather.mapLocation")])
        #expect(closed.statesReleased == [location])
        #expect(closed.registrationsRetired.count == 1)
    }

    @Test func scopesOpenAndRetireAsRegistrations() throws {
        let session = try Self.session("screens")
        let names = { (ids: [NodeID], graph: GraphSnapshot) in ids.compactMap { graph.registrations[$0]?.name } }
        let opened = try session.context().diff(from: 8, to: 9)
        #expect(
            names(opened.registrationsOpened, try session.trace.snapshot(after: 9)).contains { $0.contains("10001") })
        let retired = try session.context().diff(from: 12, to: 13)
        #expect(!retired.registrationsRetired.isEmpty)
    }

    @Test func aTurnComparedWithItselfHasNoDifferences() throws {
        let session = try Self.session("tour")
        #expect(try session.context().diff(from: 17, to: 17).isEmpty)
        #expect(try session.execute("diff 17 17")?.report == [.message("nothing differs between turn 17 and turn 17")])
    }

    @Test func badArgumentsSayWhatWouldBeAccepted() throws {
        let session = try Self.session("tour")
        #expect(
            throws: InspectorError("unknown diff aspect 'colour'; expected values, edges, leases, async, lifecycle")
        ) {
            try session.execute("diff 1 2 --only colour")
        }
        #expect(throws: InspectorError("no turn 99 in this trace; it has turns 1..25")) {
            try session.execute("diff 1 99")
        }
        #expect(throws: InspectorError("--from goes with --trace OTHER")) { try session.execute("diff 1 2 --from 3") }
    }
}

extension Array where Element == Report {
    /// All the text of a report, for a quick look for a word.
    var description: String { "\(self)" }
}
