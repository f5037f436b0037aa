import CogTraceFixtures
import Foundation
import Testing

/// `export dot|mermaid` fold keyed families of more than 8 states by default, and `--unfold`
/// brings them back, on a Weather-like trace of 12 ZIPs, through the real executable.
@Suite("Folded exports", .timeLimit(.minutes(5)))
struct FoldedExportTests {
    @Test func wideFamiliesFoldAndUnfoldOnDemand() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("twelve.cogtrace")
        try SyntheticTraces.write(turns: 40, to: trace)
        func export(_ command: String) throws -> Executables.Outcome {
            try Executables.coginspect([trace.path, "-c", command])
        }
        let folded = try export("export dot")
        #expect(folded.status == 0, "\(folded.standardError)")
        #expect(folded.standardOutput.contains("weather.forecast[*]\\n12 keys"), "\(folded.standardOutput)")
        #expect(!folded.standardOutput.contains("weather.forecast[10001]"))
        let one = try export("export mermaid --unfold weather.forecast")
        #expect(one.status == 0, "\(one.standardError)")
        #expect(one.standardOutput.contains("weather.forecast[10001]"))
        #expect(one.standardOutput.contains("weather.isNice[*]<br/>12 keys"))
        let all = try export("export dot --unfold all")
        #expect(all.status == 0)
        #expect(!all.standardOutput.contains("[*]"))
        let wrong = try export("export dot --unfold weather.forcast")
        #expect(wrong.status != 0)
        #expect(wrong.standardError.contains("unknown family 'weather.forcast'; did you mean 'weather.forecast'?"))
        let json = try export("export json --unfold all")
        #expect(json.status != 0)
        #expect(json.standardError.contains("--unfold goes with export dot|mermaid"))
    }

    /// The focused state is what was asked about: on the wide trace, feed.score[100]'s
    /// neighbourhood holds a dozen other scores, which fold; it stays itself beside them.
    @Test func theFocusedStateIsNeverFoldedIntoItsFamily() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("focus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("wide.cogtrace")
        var shape = SyntheticWideTrace.Shape()
        shape.turns = 50
        var synthetic = SyntheticWideTrace(shape: shape)
        _ = try synthetic.write(to: trace)
        let focused = try Executables.coginspect([trace.path, "-c", "export dot --focus feed.score[100]"])
        #expect(focused.status == 0, "\(focused.standardError)")
        #expect(focused.standardOutput.contains("label=\"feed.score[100]\\n"), "\(focused.standardOutput)")
        #expect(focused.standardOutput.contains("label=\"feed.score[*]\\n"), "its siblings still fold")
        let mermaid = try Executables.coginspect([trace.path, "-c", "export mermaid --focus feed.score[100]"])
        #expect(mermaid.standardOutput.contains("feed.score[100]"), "\(mermaid.standardOutput)")
    }
}
