import Foundation
import Testing

/// Ctrl-C (SIGINT) during a long command in batch: the command stops, the run exits 130, and an
/// export it cut short leaves no file. On a synthetic trace long enough that each command runs
/// for seconds, signalled once the command is under way; the test asserts what happened, not
/// how fast (docs/inspector.md gives the figures).
@Suite("Interrupts in batch", .serialized)
struct InterruptTests {
    /// Writes a synthetic trace of 60,000 turns for one test.
    private func syntheticTrace() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "interrupts-\(UUID().uuidString).cogtrace")
        try SyntheticTraces.write(turns: 60_000, to: url)
        return url
    }

    /// Runs `coginspect` on the synthetic trace with `arguments`, interrupts it after `delay`,
    /// and returns its exit status and standard error.
    private func interrupted(after delay: Duration, _ arguments: [String]) throws -> (Int32, String) {
        let trace = try syntheticTrace()
        defer { try? FileManager.default.removeItem(at: trace) }
        let process = Process()
        process.executableURL = Executables.productsDirectory.appendingPathComponent("coginspect")
        process.arguments = [trace.path] + arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
        process.interrupt()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test func anInterruptedExportLeavesNoFile() throws {
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("interrupted-\(getpid()).html")
        defer { try? FileManager.default.removeItem(at: page) }
        let (status, errors) = try interrupted(after: .seconds(2), ["-c", "export html --to \(page.path)"])
        #expect(status == 130, "\(errors)")
        #expect(errors.contains("interrupted"), "\(errors)")
        #expect(!FileManager.default.fileExists(atPath: page.path), "an interrupted export wrote its file")
        let partials = try FileManager.default.contentsOfDirectory(atPath: page.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(".\(page.lastPathComponent)") }
        #expect(partials.isEmpty, "\(partials)")
    }

    /// `play` with a pause between turns, and a `bisect` over an expression that never holds and
    /// that every turn makes a candidate for (it walks the whole trace).
    @Test(arguments: [
        "play 1..60000 --delay 1000",
        "bisect " + (0..<12).map { "weather.forecast[\(10001 + $0 * 7)].temperatureF > 999" }.joined(separator: " or ")
            + " or weather.currentZip == \"none\"",
    ])
    func aLongCommandStopsAtCtrlC(_ command: String) throws {
        let (status, errors) = try interrupted(after: .seconds(1), ["-c", command])
        #expect(status == 130, "\(command): \(errors)")
        #expect(errors.contains("coginspect: interrupted at turn"), "\(command): \(errors)")
    }
}
