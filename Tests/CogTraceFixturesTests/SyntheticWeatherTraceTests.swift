import CogTraceFixtures
import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

/// The generated Weather-like trace is a valid recording of the length asked for, with a
/// keyframe every thousand turns and the same bytes every time, so tests and the bench that
/// share it measure and check one file.
@Suite("Synthetic Weather trace")
struct SyntheticWeatherTraceTests {
    private func written(turns: Int) throws -> (URL, Int) {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("synthetic-\(UUID().uuidString).cogtrace")
        var trace = SyntheticWeatherTrace(turns: turns)
        return (url, try trace.write(to: url))
    }

    @Test(arguments: [1, 999, 2_500])
    func loadsWithEveryTurnAndItsKeyframes(turns: Int) throws {
        let (url, size) = try written(turns: turns)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int == size)
        let trace = try TraceFile.load(contentsOf: url)
        #expect(trace.turnCount == turns)
        #expect(trace.trailer?.ok == true)
        #expect(trace.trailer?.keyframes == trace.keyframeTurns.count)
        #expect(trace.warnings.isEmpty, "\(trace.warnings)")
        #expect(trace.stateID(labelled: "weather.currentZip") != nil)
    }

    @Test func theSameLengthGivesTheSameBytes() throws {
        let (first, _) = try written(turns: 1_200)
        let (second, _) = try written(turns: 1_200)
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
    }
}
