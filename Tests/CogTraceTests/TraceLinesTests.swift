import Cog
import CogTraceFormat
import Testing

@testable import CogTrace

/// State records written in a row reuse the bytes of the declaration's part when it is spelled
/// the same, and come out exactly as each record spelled on its own.
@Suite("Trace lines")
struct TraceLinesTests {
    private static let hostile = "a\"b\\c\n\t\u{1}\u{7F}\u{85}\u{2028}é🙂</script>"

    /// A state of a declaration of its own, as a lattice's are.
    private func state(
        _ id: Int, _ label: String, key: String? = nil, shape: CogShape = .automatic, valueType: String = "Int",
        lifetime: String = "whileObserved(30.0 seconds)", policy: AsyncPolicyKind? = nil
    ) -> CogStateInfo {
        CogStateInfo(
            id: CogStateID(id),
            declarationInfo: CogDeclarationInfo(
                label: label, shape: shape, valueType: valueType, lifetime: lifetime, policy: policy),
            key: key)
    }

    /// The record as the state table's entry spells it alone, and its line.
    private func alone(_ info: CogStateInfo) -> String {
        var bytes = ByteBuffer()
        TraceStateInfo(info).jsonValue.write(to: &bytes)
        return bytes.text + "\n"
    }

    @Test func aRunOfStatesReadsAsEachAlone() {
        let shared = CogDeclarationInfo(
            label: "weather.isNice", shape: .automatic, valueType: "Bool", lifetime: "app", policy: nil)
        let states = [
            state(1, "grid.0.a"), state(2, "grid.0.b"),
            // Each member of the declaration's part changes once, then the first comes back.
            state(3, "grid.source", shape: .manual, lifetime: "app"),
            state(4, "grid.0.c", valueType: "Double"),
            state(5, "grid.0.d", lifetime: "whileObserved(5.0 seconds)"),
            state(6, "weather.forecast", key: "10001", shape: .async, valueType: "Forecast", policy: .latest),
            state(7, "weather.forecast", key: "\"quoted\"", shape: .async, valueType: "Forecast", policy: .queue),
            state(8, "grid.1.a"), state(9, "grid.1.b"),
            // One declaration's states, and hostile text in a label, a key and a tail.
            CogStateInfo(id: CogStateID(10), declarationInfo: shared, key: "10001"),
            CogStateInfo(id: CogStateID(11), declarationInfo: shared, key: Self.hostile),
            state(12, Self.hostile, key: Self.hostile, valueType: Self.hostile, lifetime: Self.hostile),
            state(13, Self.hostile, valueType: Self.hostile, lifetime: Self.hostile),
            state(14_000_000, ""),
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
