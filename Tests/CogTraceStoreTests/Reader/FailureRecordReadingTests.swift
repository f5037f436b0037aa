import Testing

@testable import CogTraceFormat
@testable import CogTraceStore

/// Failure records as the reader takes them: kept in turn order, and skipped with a warning when
/// malformed, so a hostile record changes no answer.
@Suite("Reading failure records")
struct FailureRecordReadingTests {
    private let header =
        #"{"type":"header","format":"cogtrace","version":"1.1","minReader":"1.0","producer":"test","run":"r","title":"t","clock":"virtual","mode":"ring","capacity":10,"keyframeEvery":10}"#
    private let turn =
        #"{"type":"turn","seq":1,"name":"step","origin":"op","cause":null,"start":0,"duration":0,"events":[]}"#

    @Test func failuresAreReadInTurnOrderWithTheirLocation() throws {
        let trace = try TraceFile.parse(
            [
                header, turn,
                #"{"type":"failure","after":1,"test":"T.b","kind":"error","message":"late","file":null,"line":null}"#,
                #"{"type":"failure","after":0,"test":"T.a","kind":"expectation","message":"early","file":"T.swift","line":4}"#,
                #"{"type":"trailer","ok":true,"turns":1,"evicted":0,"dropped":0,"keyframes":0}"#,
            ].joined(separator: "\n"))
        #expect(trace.failures.map(\.message) == ["early", "late"])
        #expect(trace.failures.first?.location == "T.swift:4")
        #expect(trace.failures.first?.kind == .expectation)
        #expect(trace.warnings.isEmpty)
    }

    @Test(arguments: [
        #"{"type":"failure","after":-3,"message":"negative"}"#,
        #"{"type":"failure","after":9007199254740993,"message":"past 2^53"}"#,
        #"{"type":"failure","after":1}"#,
        #"{"type":"failure","message":"no turn"}"#,
    ])
    func aMalformedFailureIsSkippedWithAWarning(_ record: String) throws {
        let trace = try TraceFile.parse([header, turn, record].joined(separator: "\n"))
        #expect(trace.failures.isEmpty)
        #expect(trace.warnings.contains { $0.message.hasPrefix("failure record needs 'after'") })
    }
}
