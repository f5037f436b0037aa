import CogTraceFormat
import Testing

@testable import CogTrace

/// State records written in a row reuse the bytes of the declaration's part when it is spelled
/// the same, and come out exactly as each record spelled on its own.
@Suite("Trace lines")
struct TraceLinesTests {
    private func state(
        _ id: Int, _ label: String, key: String? = nil, shape: StateShape = .automatic, valueType: String = "Int",
        lifetime: String = "whileObserved(30.0 seconds)", policy: AsyncPolicyName? = nil
    ) -> TraceStateInfo {
        TraceStateInfo(
            id: NodeID(id), label: label, declaration: label, key: key, shape: shape, valueType: valueType,
            lifetime: StateLifetime(rawValue: lifetime), policy: policy)
    }

    /// The record as its JSON value spells it alone, and its line.
    private func alone(_ state: TraceStateInfo) -> String {
        var bytes = ByteBuffer()
        state.jsonValue.write(to: &bytes)
        return bytes.text + "\n"
    }

    @Test func aRunOfStatesReadsAsEachAlone() {
        let states = [
            state(1, "grid.0.a"), state(2, "grid.0.b"),
            // Each member of the declaration's part changes once, then the first comes back.
            state(3, "grid.source", shape: .manual, lifetime: "app"),
            state(4, "grid.0.c", valueType: "Double"),
            state(5, "grid.0.d", lifetime: "whileObserved(5.0 seconds)"),
            state(6, "weather.forecast", key: "10001", shape: .async, valueType: "Forecast", policy: .latest),
            state(7, "weather.forecast", key: "\"quoted\"", shape: .async, valueType: "Forecast", policy: .queue),
            state(8, "grid.1.a"), state(9, "grid.1.b"),
        ]
        var lines = TraceLines()
        for state in states { lines.append(state) }
        #expect(lines.text == states.map(alone).joined())
    }

    @Test func theReusedPartSurvivesEmptyingTheLines() {
        var lines = TraceLines()
        lines.append(state(1, "grid.0.a"))
        lines.removeAll()
        lines.append(state(2, "grid.0.b"))
        #expect(lines.text == alone(state(2, "grid.0.b")))
    }
}
