import Foundation
import Testing

@testable import CogInspector
@testable import CogInspectorExport

/// A helper program is fed and read without deadlock, stopped at its time limit or at an
/// interrupt, and never left running.
@Suite("Helper programs", .timeLimit(.minutes(5)))
struct HelperProgramTests {
    /// Input and output far larger than a pipe's buffer pass through whole: the run writes and
    /// reads on one thread without either side blocking the other.
    @Test func largeInputAndOutputPassThrough() throws {
        let input = (0..<400_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let cat = HelperProgram(program: URL(fileURLWithPath: "/bin/cat"), arguments: [])
        let outcome = try cat.run(input: input, timeLimit: .seconds(120), interruptRequested: { false })
        #expect(outcome == .finished(status: 0, output: input))
    }

    @Test func exitStatusAndEmptyInput() throws {
        let shell = HelperProgram(program: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "echo hi; exit 3"])
        let outcome = try shell.run(input: [], timeLimit: .seconds(120), interruptRequested: { false })
        #expect(outcome == .finished(status: 3, output: Array("hi\n".utf8)))
    }

    @Test func aProgramThatIsMissingDoesNotStart() throws {
        let missing = HelperProgram(program: URL(fileURLWithPath: "/nonexistent/dot"), arguments: [])
        let outcome = try missing.run(input: [1], timeLimit: .seconds(120), interruptRequested: { false })
        #expect(outcome == .notStarted(String(cString: strerror(ENOENT))))
    }

    /// A program that never ends is killed at the limit, and reaped: its pid is gone.
    @Test func theTimeLimitKillsTheProgram() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pidFile = folder.appendingPathComponent("pid")
        let sleeper = HelperProgram(
            program: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "echo $$ > '\(pidFile.path)'; exec sleep 1000"])
        let outcome = try sleeper.run(input: Array("x".utf8), timeLimit: .seconds(2), interruptRequested: { false })
        #expect(outcome == .timedOut)
        // On a machine so loaded that the shell had not written its pid in 2 s, it was killed first.
        if let pid = Self.pid(in: pidFile) {
            #expect(kill(pid, 0) != 0 && errno == ESRCH, "the helper \(pid) is still there")
        }
    }

    /// An interrupt ends the run at once with `.interrupted`, and the program with it.
    @Test func anInterruptKillsTheProgram() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pidFile = folder.appendingPathComponent("pid")
        let sleeper = HelperProgram(
            program: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "echo $$ > '\(pidFile.path)'; exec sleep 1000"])
        let path = pidFile.path
        // The interrupt comes once the program has started (its pid file exists).
        let interrupt: @Sendable () -> Bool = { Self.pid(in: URL(fileURLWithPath: path)) != nil }
        #expect(throws: InspectorError.interrupted) {
            try sleeper.run(input: [], timeLimit: .seconds(600), interruptRequested: interrupt)
        }
        let pid = try #require(Self.pid(in: pidFile))
        #expect(kill(pid, 0) != 0 && errno == ESRCH, "the helper \(pid) is still there")
    }

    /// The pid a helper wrote to `file`, once it has written it whole.
    nonisolated static func pid(in file: URL) -> Int32? {
        guard let text = try? String(contentsOf: file, encoding: .utf8), text.hasSuffix("\n") else { return nil }
        return Int32(text.dropLast())
    }

    private static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("helper-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
