import CogTraceFormat
import CogTraceStore
import Testing

@testable import CogInspector

/// The expression language of `bisect` and `expect`: parsing, evaluation, and bisect agreeing
/// with a scan of every turn.
@Suite("expressions, bisect and expect")
struct ExpressionTests {
    /// The first turn where `expression` holds, found by applying every turn in order.
    private func linearScan(_ session: InspectorSession, _ expression: TraceExpression) throws -> TurnNumber? {
        guard let first = session.turns.first else { return nil }
        var graph = try session.trace.snapshot(after: first - 1)
        for sequence in session.turns {
            let turn = try session.trace.turn(sequence)
            for event in turn.events + turn.after { graph.apply(event) }
            if expression.holds(in: graph, turn: turn) { return sequence }
        }
        return nil
    }

    @Test func bisectFindsTheTurnALinearScanFinds() throws {
        let session = try DiffTests.session("tour")
        let expression = try session.context().expression("'weather.isNice[10001] == true'")
        let found = try #require(try session.context().bisect(expression))
        #expect(found.turn == 6)
        #expect(found.turn == (try linearScan(session, expression)))
        #expect(found.evaluations < session.turns.count)
    }

    @Test(arguments: [
        "weather.isNice[10001] == true", "weather.isNice[10001] == false and exists weather.isNice[10001]",
        "weather.isNiceHere == true and weather.currentZip == 94105", "changed weather.currentZip",
        "not changed weather.isNiceHere and weather.isNiceHere == true", "weather.forecast[10001].temperatureF < 70",
        "status weather.forecast[94105] == pending and weather.forecast[94105].condition == cloudy",
        "leased weather.isNiceHere", "weather.forecast[98101].temperatureF >= 62 or weather.currentZip == 98101",
        "weather.currentZip == nil", "weather.isNice[60601] == true",
    ])
    func bisectAgreesWithAScanOnEveryRecording(_ text: String) throws {
        for name in ["tour", "switching", "service-outage", "stale-refresh", "map", "screens", "heat-advisory"] {
            let session = try DiffTests.session(name)
            guard let expression = try? session.context(CommandCall(isLastCommand: true)).expression(text) else {
                continue
            }
            #expect(
                try session.context(CommandCall(isLastCommand: true)).bisect(expression)?.turn
                    == (try linearScan(session, expression)), "\(name): \(text)")
            #expect(
                !session.context(CommandCall(isLastCommand: true)).hasTimeline,
                "bisect indexed more than the states it names")
        }
    }

    @Test func andBindsTighterThanOrAndNotTighterStill() throws {
        let session = try DiffTests.session("tour")
        let expression = try session.context().expression(
            "exists weather.currentZip or not exists weather.currentZip and changed weather.currentZip")
        guard case .or(.exists, .and(.not(.exists), .changed)) = expression else {
            Issue.record("parsed as \(expression)")
            return
        }
        let grouped = try session.context().expression(
            "(exists weather.currentZip or exists weather.isNiceHere) and leased weather.isNiceHere")
        guard case .and(.or, .leased) = grouped else {
            Issue.record("parsed as \(grouped)")
            return
        }
    }

    @Test func aFieldPathSplitsFromTheLongestLabel() throws {
        let session = try DiffTests.session("tour")
        let expression = try session.context().expression("weather.forecast[10001].temperatureF > 90")
        guard case .compare(let reference, .greater, .number(90, _)) = expression else {
            Issue.record("parsed as \(expression)")
            return
        }
        #expect(reference.label == "weather.forecast[10001]" && reference.path == ".temperatureF")
    }

    @Test func literalsCompareByTypeAndZipsByText() throws {
        #expect(TraceExpression.compare(.int(72), .greater, .number(70, text: "70")))
        #expect(!TraceExpression.compare(.int(72), .less, .number(70, text: "70")))
        #expect(TraceExpression.compare(.string("10001"), .equal, .number(10001, text: "10001")))
        #expect(TraceExpression.compare(.null, .equal, .null))
        #expect(!TraceExpression.compare(.bool(true), .equal, .bool(false)))
        #expect(TraceExpression.compare(.string("rain"), .notEqual, .text("clear")))
    }

    @Test func mistakesAreNamedWithWhatWouldBeAccepted() throws {
        let session = try DiffTests.session("tour")
        #expect(throws: InspectorError("unknown state 'weather.isNise[10001]'; did you mean 'weather.isNice[10001]'?"))
        {
            try session.context().expression("weather.isNise[10001] == true")
        }
        #expect(throws: InspectorError("unknown operator '=<'; expected ==, !=, <, <=, > or >=")) {
            try session.context().expression("weather.isNiceHere =< 3")
        }
        #expect(throws: InspectorError("expression ends early; expected a value to compare with")) {
            try session.context().expression("weather.isNiceHere ==")
        }
        #expect(throws: InspectorError("a status compares with == or !=, not '>'")) {
            try session.context().expression("status weather.forecast[10001] > success")
        }
        #expect(throws: InspectorError("unexpected 'true' in expression; expected 'and', 'or' or the end")) {
            try session.context().expression("exists weather.isNiceHere true")
        }
    }

    @Test func expectFailsAsAnExpectationAtTheCursor() throws {
        let session = try DiffTests.session("tour")
        try session.move(to: 6)
        #expect(
            try session.execute("expect weather.isNice[10001] == true")?.report
                == [.message("holds at turn 6: weather.isNice[10001] == true")])
        try session.move(to: 25)
        #expect(
            throws: InspectorError(
                "expectation failed at turn 25: weather.isNice[10001] == true (weather.isNice[10001] = false)",
                kind: .expectation)
        ) {
            try session.execute("expect weather.isNice[10001] == true")
        }
    }

    @Test func bisectMovesTheCursorOrSaysItNeverHolds() throws {
        let session = try DiffTests.session("tour")
        let expression = "weather.isNiceHere == true and weather.currentZip == 94105"
        _ = try session.execute("bisect \(expression)")
        #expect(session.cursor == 9)
        #expect(session.cursor == (try linearScan(session, try session.context().expression(expression))))
        #expect(
            try session.execute("bisect weather.forecast[10001].temperatureF > 200")?.report
                == [
                    .message("weather.forecast[10001].temperatureF > 200 holds at no turn of this recording"),
                    .verdict(.notFound),
                ])
    }
}
