import CogCommandLine
import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

@testable import CogBench

/// `cog-bench --write-synthetic FILE` writes the trace the inspector section measures, keeps an
/// existing file unless told, and the trace it writes loads with every turn.
@Suite("Synthetic trace")
struct SyntheticTraceTests {
    @Test func writesALoadableTraceAndKeepsAnExistingFile() async throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("cog-bench-synthetic-test-\(UUID().uuidString).cogtrace")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(await CogBenchCommand.run(["--write-synthetic", url.path, "--sizes", "300"]) == .success)
        let trace = try TraceFile.load(contentsOf: url)
        #expect(trace.turnCount == 300)
        #expect(trace.trailer?.ok == true)
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int
        #expect(await CogBenchCommand.run(["--write-synthetic", url.path, "--sizes", "30"]) == .failure)
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int == size)
        #expect(await CogBenchCommand.run(["--write-synthetic", url.path, "--sizes", "30", "--force"]) == .success)
        #expect(try TraceFile.load(contentsOf: url).turnCount == 30)
    }
}
