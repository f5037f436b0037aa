import CogTraceFixtures
import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

/// The generated wide trace has the states, families and edges asked for, loads as a valid
/// recording, and is the same bytes every time.
@Suite("Synthetic wide trace")
struct SyntheticWideTraceTests {
    private func shape(states: Int, keys: ClosedRange<Int>, edges: Int, turns: Int) -> SyntheticWideTrace.Shape {
        var shape = SyntheticWideTrace.Shape()
        shape.states = states
        shape.keysPerFamily = keys
        shape.edgesPerState = edges
        shape.turns = turns
        return shape
    }

    @Test(arguments: [(1_000, 10...300), (10_000, 100...2_000), (777, 50...50)])
    func familySizesCoverTheStatesWithinTheRange(_ states: Int, _ keys: ClosedRange<Int>) {
        let sizes = SyntheticWideTrace.familySizes(shape(states: states, keys: keys, edges: 5, turns: 1))
        #expect(sizes.reduce(0, +) == states)
        #expect(sizes.first == keys.upperBound)
        #expect(sizes.dropLast().allSatisfy { keys.contains($0) })
    }

    @Test func theTraceHasTheGraphAskedFor() throws {
        let shape = shape(states: 1_200, keys: 30...400, edges: 4, turns: 250)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wide-\(UUID().uuidString).cogtrace")
        defer { try? FileManager.default.removeItem(at: url) }
        var synthetic = SyntheticWideTrace(shape: shape)
        let bytes = try synthetic.write(to: url)
        let trace = try TraceFile.load(contentsOf: url)
        #expect(trace.states.count == 1_200)
        #expect(Set(trace.states.values.compactMap(\.declaration)).count == SyntheticWideTrace.familySizes(shape).count)
        #expect(trace.turnCount == 250)
        #expect(trace.warnings.isEmpty, "\(trace.warnings)")
        let graph = try trace.snapshot(after: 250)
        let edges = graph.states.values.map(\.dependencies.count).reduce(0, +)
        #expect(edges == 1_200 * 4, "every edge asked for, whatever turn rewired one")
        let landmarks = SyntheticWideTrace.landmarks(shape)
        #expect(trace.stateID(labelled: landmarks.source) != nil && trace.stateID(labelled: landmarks.reader) != nil)
        var again = SyntheticWideTrace(shape: shape)
        let second = url.appendingPathExtension("again")
        defer { try? FileManager.default.removeItem(at: second) }
        #expect(try again.write(to: second) == bytes)
        #expect(try Data(contentsOf: url) == Data(contentsOf: second))
    }
}
