import CogCommandLine
import Foundation
import Testing

@testable import CogBench

/// `cog-bench --json FILE` writes a versioned report of typed measurements, and keeps a file
/// that is already there unless told, deciding before it measures anything.
@Suite("Bench JSON report", .serialized)
struct BenchJSONTests {
    private let arguments = [
        "--sections", "runtime", "--shapes", "unstable", "--variants", "ring", "--iterations", "2",
    ]

    @Test func theReportIsVersionedAndEveryFigureIsANumber() async throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("cog-bench-json-test-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(await CogBenchCommand.run(arguments + ["--json", url.path]) == .success)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        #expect(report["schemaVersion"] as? Int == CogBenchCommand.Report.currentSchemaVersion)
        let measurements = try #require(report["measurements"] as? [[String: Any]])
        #expect(Set(measurements.compactMap { $0["variant"] as? String }) == ["untraced", "ring"])
        for measurement in measurements {
            #expect(measurement["section"] as? String == "runtime")
            #expect(measurement["name"] as? String == "kairo unstable")
            #expect(measurement["unit"] as? String == "ms")
            for field in ["median", "min", "max"] {
                let value = try #require(measurement[field] as? Double, "\(field) is not a number")
                #expect(value > 0)
            }
            #expect(measurement["count"] as? Int == 2)
        }
    }

    @Test func theRecorderSectionMeasuresOnlyTheShapesChosen() async throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("cog-bench-json-shapes-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let chosen = ["--sections", "recorder", "--smoke", "--shapes", "unstable,churn", "--json", url.path]
        #expect(await CogBenchCommand.run(chosen) == .success)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let measurements = try #require(report["measurements"] as? [[String: Any]])
        let recorded = measurements.filter { $0["section"] as? String == "recorder" }
        #expect(Set(recorded.compactMap { $0["name"] as? String }) == ["kairo unstable", "key churn"])
        let roundTrips = recorded.filter { ($0["variant"] as? String)?.hasPrefix("round trip") == true }
        #expect(roundTrips.count == 4, "before and after, for each shape")
        #expect(roundTrips.allSatisfy { $0["unit"] as? String == "ns" && ($0["median"] as? Double ?? 0) > 0 })
    }

    @Test func anExistingFileIsKeptWithoutForce() async throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("cog-bench-json-keep-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("keep me".utf8).write(to: url)
        #expect(await CogBenchCommand.run(arguments + ["--json", url.path]) == .failure)
        #expect(try String(contentsOf: url, encoding: .utf8) == "keep me")
        #expect(await CogBenchCommand.run(arguments + ["--json", url.path, "--force"]) == .success)
        #expect(try String(contentsOf: url, encoding: .utf8).contains("\"schemaVersion\""))
    }

    @Test(arguments: ["nosuch", "cellx,nosuch", ""])
    func aShapesWordThatNamesNoShapeIsAUsageError(words: String) async {
        #expect(await CogBenchCommand.run(["--sections", "recorder", "--shapes", words]) == .usage)
    }

    @Test func aShapesWordNeedNotBeAWholeName() async throws {
        let options = try BenchOptions(arguments: ["--shapes", "diamond,churn"])
        #expect(options.shapes == ["diamond", "churn"])
    }
}
