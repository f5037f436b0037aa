import Foundation
import Testing

/// The regression docs/inspector.md and docs/comparing.md show, made again: the tour recorded
/// with a small logic change (`weather record --change nice-from-70`), compared with the shipped
/// tour, must print what the docs print, and `weather replay` must name the same step.
@Suite("The documented comparison")
struct ComparisonDocsTests {
    private static let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "comparison-docs-\(UUID().uuidString)")

    /// The lines of the block in `doc` that follows the line `command`, up to the fence (or a
    /// `…` line, where the doc cuts the output short).
    private func documentedOutput(_ doc: String, after command: String) throws -> [String] {
        let text = try String(
            contentsOf: Executables.packageRoot.appendingPathComponent("docs/\(doc)"), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: command), "\(doc) shows '\(command)'")
        return Array(lines[(start + 1)...].prefix { $0 != "```" && $0 != "…" })
    }

    @Test func theDocsShowWhatTheToolsPrint() throws {
        try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: Self.directory) }
        let changed = Self.directory.appendingPathComponent("nice70.cogtrace").path
        let weather = Executables.productsDirectory.appendingPathComponent("weather")
        let recorded = try Executables.run(
            weather, ["record", "tour", "--change", "nice-from-70", "-o", changed], input: "")
        #expect(recorded.status == 0, "\(recorded.standardError)")
        let compared = try Executables.coginspect(["Recordings/tour.cogtrace", "-c", "diff --trace \(changed)"])
        #expect(compared.status == 1, "a difference is a 'no' answer")
        let printed = compared.standardOutput.components(separatedBy: "\n")
        let command = "$ swift run coginspect tour.cogtrace -c 'diff --trace nice70.cogtrace'"
        for doc in ["inspector.md", "comparing.md"] {
            let shown = try documentedOutput(doc, after: command)
            #expect(shown.count > 6)
            #expect(Array(printed.prefix(shown.count)) == shown, "\(doc) shows another output")
        }
        let replayed = try Executables.run(weather, ["replay", changed], input: "")
        #expect(replayed.status == 1)
        let shownReplay = try documentedOutput("comparing.md", after: "$ swift run weather replay nice70.cogtrace")
        let replayLines = replayed.standardOutput.components(separatedBy: "\n")
            .map { $0.replacingOccurrences(of: changed, with: "nice70.cogtrace") }
        #expect(Array(replayLines.prefix(shownReplay.count)) == shownReplay)
    }
}
