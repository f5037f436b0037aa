import Foundation

/// Runs this test bundle again as a subprocess with `COG_TRACE_DEMO=1`, so its deliberately
/// failing demos run under the real test runners, and reads what they leave behind.
enum DemoBundle {
    /// This test bundle's own executable.
    static var executable: URL {
        URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
    }

    /// Runs the bundle with `arguments`, recording into a fresh directory; returns the files
    /// written there and what the run printed. `unsetting` names variables the run must not see.
    static func run(
        _ arguments: [String], environment extra: [String: String] = [:], unsetting: [String] = []
    ) throws
        -> (files: [String: String], output: String, directory: URL, status: Int32)
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cog-traces-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["COG_TRACE_DEMO"] = "1"
        environment["COG_TRACE_DIR"] = directory.path
        environment.merge(extra) { $1 }
        for name in unsetting { environment[name] = nil }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var files: [String: String] = [:]
        for name in names {
            files[name] = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        }
        let status =
            process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return (files, printed, directory, status)
    }

    /// What `coginspect` (built beside this bundle) prints on standard output for `arguments`.
    static func coginspect(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = executable.deletingLastPathComponent().appendingPathComponent("coginspect")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return printed
    }
}
