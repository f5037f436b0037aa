import Foundation
import Testing

/// The sidecar index from the command line: the first open writes it and says so, the next
/// reads it, `--no-index` neither reads nor writes one, and every answer is the same with and
/// without it, on every committed recording.
@Suite("Sidecar index from the command line", .serialized)
struct SidecarIndexTests {
    private let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sidecar-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Indexing every trace, whatever its size: the committed recordings are small.
    private let indexEverything = ["COGINSPECT_INDEX_MIN_MB": "0"]

    private func script(for trace: String) -> [String] {
        [
            "info", "turns", "goto 3", "graph", "history weather.currentZip", "why weather.isNiceHere",
            "find write weather.currentZip", "bisect weather.currentZip == 94105", "failures", "warnings",
            "sql SELECT count(*) FROM events",
        ].flatMap { ["-c", $0] }
    }

    @Test(arguments: Executables.recordings)
    func everyAnswerIsTheSameWithAndWithoutTheIndex(_ recording: String) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent(URL(fileURLWithPath: recording).lastPathComponent)
        try FileManager.default.copyItem(at: Executables.packageRoot.appendingPathComponent(recording), to: trace)
        let arguments = [trace.path, "--keep-going"] + script(for: recording)
        let whole = try Executables.coginspect(arguments + ["--no-index"], environment: indexEverything)
        #expect(!FileManager.default.fileExists(atPath: trace.path + ".cogindex"), "--no-index writes none")
        let first = try Executables.coginspect(arguments, environment: indexEverything)
        #expect(first.standardError.hasPrefix("indexed \(trace.path) for a faster reopening"), "\(first.standardError)")
        #expect(FileManager.default.fileExists(atPath: trace.path + ".cogindex"))
        let reopened = try Executables.coginspect(arguments, environment: indexEverything)
        #expect(reopened.standardOutput == whole.standardOutput)
        #expect(first.standardOutput == whole.standardOutput)
        #expect(reopened.standardError == whole.standardError, "no note once the index is good")
        #expect(reopened.status == whole.status)
    }

    @Test func aBadSettingIsAUsageError() throws {
        let outcome = try Executables.coginspect(
            ["Recordings/tour.cogtrace", "-c", "info"], environment: ["COGINSPECT_INDEX_MIN_MB": "lots"])
        #expect(outcome.status == 64)
        #expect(outcome.standardError.contains("COGINSPECT_INDEX_MIN_MB must be a whole number of megabytes"))
    }
}
