import Foundation
import Testing

/// A diagnostic written to a standard error that cannot take it (`2>/dev/full`) is dropped, never
/// a trap: the exit status still says what happened.
@Suite("A full standard error")
struct FullStandardErrorTests {
    /// Runs `program` with `arguments` in the package root, standard error on `/dev/full`.
    private func runWithFullStandardError(
        _ program: String, _ arguments: [String]
    ) throws -> (
        status: Int32, exited: Bool
    ) {
        let process = Process()
        process.executableURL = Executables.productsDirectory.appendingPathComponent(program)
        process.arguments = arguments
        process.currentDirectoryURL = Executables.packageRoot
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: "/dev/full")
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason == .exit)
    }

    @Test func aMissingTraceStillExitsSixtySix() throws {
        let outcome = try runWithFullStandardError("coginspect", ["/nonexistent/trace.cogtrace", "-c", "info"])
        #expect(outcome.exited, "coginspect died of a signal")
        #expect(outcome.status == 66)
    }

    @Test func aUsageMistakeStillExitsSixtyFour() throws {
        let outcome = try runWithFullStandardError("coginspect", ["--frobnicate"])
        #expect(outcome.exited)
        #expect(outcome.status == 64)
    }

    @Test func aFailingCommandStillExitsOne() throws {
        let outcome = try runWithFullStandardError("coginspect", ["Recordings/tour.cogtrace", "-c", "goto 999"])
        #expect(outcome.exited)
        #expect(outcome.status == 1)
    }

    @Test func anAppWhoseTraceFailsRunsOnAndSaysSoInItsStatus() throws {
        // The trace goes to a device that refuses every write: the recorder reports the fault on
        // standard error, which refuses it too; the app runs on, and ends with 74 when stopped.
        let process = Process()
        process.executableURL = Executables.productsDirectory.appendingPathComponent("weather")
        process.arguments = ["run", "--trace", "/dev/full", "--interval", "0.1"]
        process.currentDirectoryURL = Executables.packageRoot
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/full")
        try process.run()
        // Waits for the dashboard's footer, which comes after the recorder started (and failed).
        var printed = ""
        while !printed.contains("Ctrl-C or SIGTERM ends") {
            let chunk = output.fileHandleForReading.availableData
            try #require(!chunk.isEmpty, "weather ended before it drew its dashboard: \(printed)")
            printed += String(decoding: chunk, as: UTF8.self)
        }
        // The footer comes once the app catches SIGTERM; the kernel says when its handler is in.
        #expect(Self.waitUntilCatching(SIGTERM, in: process.processIdentifier))
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "weather died of a signal")
        #expect(process.terminationStatus == 74)
    }

    /// Waits until process `pid` has a handler for `signal` (`SigCgt` in `/proc/PID/status`):
    /// a signal sent before then would be lost or kill it. False when that never comes.
    private static func waitUntilCatching(_ signal: Int32, in pid: Int32) -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            let caught = status.split(separator: "\n").first { $0.hasPrefix("SigCgt:") }
                .flatMap { UInt64($0.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) }
            if let caught, caught & (1 << UInt64(signal - 1)) != 0 { return true }
            usleep(10_000)
        }
        return false
    }
}
