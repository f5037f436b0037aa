import CogTraceFormat
import Testing

@testable import CogInspector

/// `history` as a stream: read whole, its rows and what follows them are the history a batch
/// run prints, for every state of every recording, whole or up to a turn, however small the
/// batches; and only a session that asks for streams gets one.
@Suite("history streamed")
struct HistoryStreamTests {
    @Test(arguments: ["tour", "map", "screens", "switching", "service-outage", "stale-refresh", "heat-advisory"])
    func aStreamedHistoryReadWholeIsTheHistory(_ name: String) throws {
        let session = try DiffTests.session(name)
        let last = try #require(session.turns.last)
        let middle = session.turns[session.turns.count / 2]
        for id in session.trace.states.keys.sorted() {
            for limit in [nil, middle, last] {
                let whole = session.stateHistory(of: id, field: nil, through: limit)
                for firstBatch in [1, 3, 1_000] {
                    // A fresh session each time: a timeline built by one would be reused by the next.
                    let streaming = try DiffTests.session(name)
                    let streamed = streaming.streamedStateHistory(
                        of: id, field: nil, through: limit, firstBatch: firstBatch)
                    guard case .streamedTable? = streamed.first else {
                        Issue.record("not a stream: \(streamed)")
                        return
                    }
                    #expect(
                        Report.materialized(streamed) == whole,
                        "\(name): \(session.label(id)) through \(limit.map { "\($0)" } ?? "the end"), batches of \(firstBatch)"
                    )
                }
            }
        }
    }

    @Test func aFieldsHistoryStreamsTheSameRows() throws {
        let session = try DiffTests.session("heat-advisory")
        let id = try session.resolveState("weather.forecast[10001]")
        let whole = session.stateHistory(of: id, field: ".temperatureF", through: nil)
        let streamed = try DiffTests.session("heat-advisory").streamedStateHistory(
            of: id, field: ".temperatureF", through: nil, firstBatch: 2)
        #expect(Report.materialized(streamed) == whole)
    }

    @Test func onlyASessionThatAsksGetsAStream() throws {
        let session = try DiffTests.session("tour")
        let plain = try #require(try session.execute("history weather.currentZip"))
        #expect(!plain.report.contains { if case .streamedTable = $0 { true } else { false } })
        session.streamsTables = true
        let streamed = try #require(try session.execute("history weather.currentZip"))
        #expect(streamed.report.contains { if case .streamedTable = $0 { true } else { false } })
        #expect(ReportRenderer().text(streamed) == ReportRenderer().text(plain), "rendered whole, the same text")
    }
}
