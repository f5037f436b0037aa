import Foundation
import Testing

/// Structural damage is never answered silently: `info` counts every undecodable turn whatever
/// made it so, and each answer over damaged records warns naming the line.
@Suite("Structural damage is said")
struct StructuralDamageTests {
    /// The tour with `original` replaced by `damaged` on its first line holding it, in a new
    /// folder; the caller removes the folder.
    private func damagedTour(_ original: String, _ damaged: String) throws -> (folder: URL, trace: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("damage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var lines = try String(
            contentsOf: Executables.packageRoot.appendingPathComponent("Recordings/tour.cogtrace"), encoding: .utf8
        ).components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.contains(original) })
        lines[index] = lines[index].replacingOccurrences(of: original, with: damaged)
        let trace = folder.appendingPathComponent("damaged.cogtrace")
        try lines.joined(separator: "\n").write(to: trace, atomically: true, encoding: .utf8)
        return (folder, trace)
    }

    @Test func infoCountsATurnWhoseNameIsNotAString() throws {
        let (folder, trace) = try damagedTour(#""seq":9,"name":"#, #""seq":9,"name":42,"old":"#)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try Executables.coginspect([trace.path, "-c", "info"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("undecodable turns: 9"), "\(outcome.standardOutput)")
        let said = outcome.standardOutput + outcome.standardError
        #expect(said.contains("turn 9 could not be decoded (line "), "\(said)")
    }

    @Test(arguments: [
        (#""s":6,"g":1"#, #""s":999,"g":1"#, "names #999"),
        (#""cause":null,"start":1"#, #""cause":99,"start":1"#, "as its cause, which is not an earlier turn"),
    ])
    func everyAnswerOverTheDamageWarnsNamingTheLine(_ original: String, _ damaged: String, _ said: String) throws {
        let (folder, trace) = try damagedTour(original, damaged)
        defer { try? FileManager.default.removeItem(at: folder) }
        for command in ["info", "get weather.forecast[94105]", "turns", "export dot", "why weather.isNiceHere"] {
            for json in [false, true] {
                let outcome = try Executables.coginspect([trace.path] + (json ? ["--json"] : []) + ["-c", command])
                #expect(outcome.status == 0, "\(command): \(outcome.standardError)")
                let text = outcome.standardOutput + outcome.standardError
                #expect(text.contains(said) && text.contains("line "), "\(command) \(json ? "--json" : ""): \(text)")
            }
        }
    }
}
