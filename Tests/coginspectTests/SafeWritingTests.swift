import Foundation
import Testing

/// Every writer of both executables writes a file one way: never through a symbolic link, whole
/// or not at all; and output that cannot be written (a full standard output) is exit 74, never
/// 0 with the output lost.
@Suite("Writing files and output safely")
struct SafeWritingTests {
    /// A new scratch folder holding `other` ("keep") and `link` pointing at it.
    private func scratchWithALink(named name: String = "link") throws -> (folder: URL, target: URL, link: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("safe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent("other")
        try Data("keep".utf8).write(to: target)
        let link = folder.appendingPathComponent(name)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        return (folder, target, link)
    }

    private func weather(_ arguments: [String]) throws -> Executables.Outcome {
        try Executables.run(Executables.productsDirectory.appendingPathComponent("weather"), arguments)
    }

    @Test func theRecorderCommandsNeverWriteThroughALink() throws {
        let (folder, target, link) = try scratchWithALink(named: "tour.cogtrace")
        defer { try? FileManager.default.removeItem(at: folder) }
        let record = try weather(["record", "tour", "-o", link.path])
        #expect(record.status == 73, "\(record.standardError)")
        #expect(record.standardError.contains("is a symbolic link"), "\(record.standardError)")
        let all = try weather(["record", "--all", "-d", folder.path])
        #expect(all.status == 73, "\(all.standardError)")
        let run = try weather(["run", "--trace", link.path, "--interval", "0.01"])
        #expect(run.status == 73 && run.standardError.contains("symbolic link"), "\(run.standardError)")
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep", "the linked file is untouched")
        #expect(FileManager.default.fileExists(atPath: link.path), "the link is left as it was")
        let export = try Executables.coginspect(["-c", "export dot --to \(link.path) --force"])
        #expect(export.status == 73, "even with --force: \(export.standardError)")
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".partial")
        }
        #expect(leftovers.isEmpty, "no temporary file is left: \(leftovers)")
    }

    @Test func recordingOverAFileReplacesItWhole() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("safe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tour.cogtrace")
        try Data("old".utf8).write(to: file)
        let before = try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int
        let record = try weather(["record", "tour", "-o", file.path])
        #expect(record.status == 0, "\(record.standardError)")
        let after = try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int
        #expect(before != after, "a new file was renamed over the old one, not written into it")
        let shipped = try Data(contentsOf: Executables.packageRoot.appendingPathComponent("Recordings/tour.cogtrace"))
        #expect(try Data(contentsOf: file) == shipped)
    }

    @Test func recordingToADashWritesTheTraceToStandardOutput() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("safe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try Executables.run(
            Executables.productsDirectory.appendingPathComponent("weather"), ["record", "tour", "-o", "-"],
            directory: folder)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let shipped = try String(
            contentsOf: Executables.packageRoot.appendingPathComponent("Recordings/tour.cogtrace"), encoding: .utf8)
        #expect(outcome.standardOutput == shipped)
        #expect(outcome.standardError.hasPrefix("recorded tour: "))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("-").path), "no file named '-'")
    }

    /// Every command of both executables that prints exits 74 when standard output is full.
    @Test(.enabled(if: FileManager.default.isWritableFile(atPath: "/dev/full"), "needs /dev/full"))
    func aFullStandardOutputIsExitSeventyFourForEveryCommand() throws {
        let runs: [(String, [String])] = [
            ("coginspect", ["--help"]), ("coginspect", ["--version"]), ("coginspect", ["--completion-script", "bash"]),
            ("coginspect", ["--complete", "--js"]), ("weather", ["--help"]), ("weather", ["--version"]),
            ("weather", ["scenarios"]), ("weather", ["replay", "Recordings/tour.cogtrace"]),
            ("weather", ["record", "tour", "-o", "-"]), ("weather", ["help", "record"]),
        ]
        for (program, arguments) in runs {
            let process = Process()
            process.executableURL = Executables.productsDirectory.appendingPathComponent(program)
            process.arguments = arguments
            process.currentDirectoryURL = Executables.packageRoot
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 74, "\(program) \(arguments): \(text)")
            #expect(text.contains("cannot write to standard output"), "\(program) \(arguments): \(text)")
        }
    }
}
